"""A small inline SVG chart of a card's figures for its admin page.

It needs no script and no library. Each kind of player gets a bar: the win rate of decks holding
the card. A whisker shows its 95 % interval. A thin bar beneath shows the pick rate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH, ROW, LABEL = 360, 28, 80
BAR = WIDTH - LABEL - 60


class ChartRow(Protocol):
    """One kind of player's figures (the tournaments' ``FiguresByPlayer``)."""

    player: str
    decks: int
    win_rate: float | None
    win_interval: list[float] | None
    pick_rate: float | None


def figures_chart(rows: Sequence[ChartRow]) -> SafeString:
    """The chart of ``rows``, a stats view's ``by_player``.

    Each row has ``player``, ``decks``, ``win_rate``, ``win_interval`` and ``pick_rate``."""
    height = ROW * len(rows) + 24
    body = format_html_join("", "{}", ((_row(index, row),) for index, row in enumerate(rows)))
    half = LABEL + BAR // 2
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" role="img" '
        'aria-label="Win rate and pick rate by player" font-size="11" font-family="sans-serif">'
        '<line x1="{}" y1="0" x2="{}" y2="{}" stroke="#bbb" stroke-dasharray="3 3"/>{}'
        '<text x="{}" y="{}" fill="#555">Win rate (bar, 95 % interval) · pick rate (thin)</text>'
        "</svg>",
        WIDTH,
        height,
        half,
        half,
        height - 20,
        body,
        LABEL,
        height - 6,
    )


def _x(rate: float | None) -> str:
    return _px(LABEL + BAR * (rate or 0.0))


def _px(value: float) -> str:
    return f"{value:.1f}"  # format_html escapes its arguments to text: format numbers first


def _row(index: int, row: ChartRow) -> SafeString:
    top = index * ROW + 4
    win, pick, interval = row.win_rate, row.pick_rate, row.win_interval
    whisker = (
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#222"/>',
            _x(interval[0]),
            top + 7,
            _x(interval[1]),
            top + 7,
        )
        if interval
        else ""
    )
    label = f"{_percent(win)} of {row.decks}"
    return format_html(
        '<text x="0" y="{}">{}</text>'
        '<rect x="{}" y="{}" width="{}" height="14" fill="#79aec8"/>{}'
        '<rect x="{}" y="{}" width="{}" height="4" fill="#e0a040"/>'
        '<text x="{}" y="{}" fill="#333">{}</text>',
        top + 11,
        row.player,
        LABEL,
        top,
        _px(BAR * (win or 0.0)),
        whisker,
        LABEL,
        top + 17,
        _px(BAR * (pick or 0.0)),
        _px(LABEL + BAR + 4),
        top + 11,
        label,
    )


def _percent(rate: float | None) -> str:
    return "—" if rate is None else f"{rate * 100:.0f} %"
