"""Card statistics as served: one design's or one set's figures from stored play, in total, by
set combination and by kind of player, with the rates and their 95 % Wilson intervals.

Reads the rows ``tournaments.services.cardstats`` keeps current (never the matches): a design's
rows are found by the unique index's first column, a set's by its own index.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.translation import gettext as _

from cards.models import Card
from config.errors import NotFoundError
from tournaments.models import CardBalance, CardStat
from tournaments.rules.cardstats import COUNTERS, Counts, wilson

SUMS = {name: Sum(name) for name in COUNTERS}


def figures(counts: Counts) -> dict[str, Any]:
    """The served figures of some counts: rates, their interval and sample size, averages."""
    interval = wilson(counts.deck_wins, counts.decks)
    return {
        "offered": counts.offered,
        "picked": counts.picked,
        "pick_rate": _rate(counts.picked, counts.offered),
        "decks": counts.decks,
        "deck_wins": counts.deck_wins,
        "win_rate": _rate(counts.deck_wins, counts.decks),
        "win_interval": list(interval) if interval else None,
        "reveals": counts.reveals,
        "average_power": _rate(counts.power_total, counts.power_count),
        "effects": counts.effects,
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _counts(row: Mapping[str, Any]) -> Counts:
    return Counts(**{name: int(row[name] or 0) for name in COUNTERS})


def _grouped(rows: QuerySet[CardStat], by: str) -> list[dict[str, Any]]:
    groups = rows.values(by).annotate(**SUMS).order_by(by)
    return [{by: group[by], **figures(_counts(group))} for group in groups]


def _view(rows: QuerySet[CardStat]) -> dict[str, Any]:
    return {
        "total": figures(_counts(rows.aggregate(**SUMS))),
        "by_sets": _grouped(rows, "sets"),
        "by_player": _grouped(rows, "player"),
    }


def card_stats(*, key: str) -> dict[str, Any]:
    """A card design's figures (``key`` "Set/Name"); ``not_found`` for a design the catalogue
    never held and no play recorded."""
    set_name, _slash, name = key.partition("/")
    rows = list(CardStat.objects.filter(key=key).values_list("sets", "player", *COUNTERS))
    if not rows and not Card.objects.filter(card_set__name=set_name, name=name).exists():
        raise NotFoundError("not_found", _("No card %(key)r.") % {"key": key}, {"key": key})
    return {"key": key, **_summed(rows), "simulation": _simulation(key)}


def _summed(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """A design's rows (one per set combination and player: a few thousand at most) summed here,
    in one read, rather than by three aggregate queries over the same rows."""
    total, by_sets, by_player = Counts(), dict[str, Counts](), dict[str, Counts]()
    for sets, player, *values in rows:
        counts = Counts(*values)
        total.add(counts)
        by_sets.setdefault(sets, Counts()).add(counts)
        by_player.setdefault(player, Counts()).add(counts)
    return {
        "total": figures(total),
        "by_sets": [{"sets": name, **figures(by_sets[name])} for name in sorted(by_sets)],
        "by_player": [{"player": name, **figures(by_player[name])} for name in sorted(by_player)],
    }


def set_stats(*, name: str) -> dict[str, Any]:
    """A set's figures: every design of it summed (a deck holding two of its designs counts
    twice in ``decks``)."""
    return {"set": name, **_view(CardStat.objects.filter(set_name=name))}


def _simulation(key: str) -> dict[str, Any] | None:
    latest = CardBalance.objects.filter(key=key).exclude(status="failed").first()
    return None if latest is None else simulation_view(latest)


def simulation_view(balance: CardBalance) -> dict[str, Any]:
    """A balance simulation as served: progress, the win rates with and without the card, their
    intervals, and the difference."""
    with_interval = wilson(balance.wins_with, balance.done)
    without_interval = wilson(balance.wins_without, balance.done)
    with_rate = _rate(balance.wins_with, balance.done)
    without_rate = _rate(balance.wins_without, balance.done)
    return {
        "status": balance.status,
        "matches": balance.matches,
        "done": balance.done,
        "win_rate_with": with_rate,
        "win_interval_with": list(with_interval) if with_interval else None,
        "win_rate_without": without_rate,
        "win_interval_without": list(without_interval) if without_interval else None,
        "difference": None
        if with_rate is None or without_rate is None
        else round(with_rate - without_rate, 4),
        "finished_at": balance.finished_at,
    }
