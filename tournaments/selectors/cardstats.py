"""Card statistics as served: one design's or one set's figures from stored play.

Figures come in total, by set combination and by kind of player. Rates carry their 95 % Wilson
intervals. It reads the pre-summed rows ``tournaments.services.cardstats`` keeps current. It never
reads the matches. A design's or a set's figures are its own rows: one per set combination, one per
kind of player. The unique index's first column finds them. They are summed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, overload

from django.db.models import (
    BigIntegerField,
    Case,
    FloatField,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Coalesce, Concat
from django.utils.translation import gettext as _

from cards.models import Card, CardSet
from infra.errors import NotFoundError
from tournaments.cardstats_shapes import (
    CardFigures,
    CardStats,
    DesignStats,
    FiguresByPlayer,
    FiguresBySets,
    FiguresPage,
    SetStats,
    Simulation,
    WinShown,
)
from tournaments.models import CardBalance, CardStat
from tournaments.rules.cardstats import ALL, COUNTERS, Counts, wilson

PAGE = 20  # set combinations per page unless asked (the tournament list's default)


def figures(counts: Counts) -> CardFigures:
    """The served figures of some counts: rates, interval, sample size and averages."""
    return figures_of(counts.values())


def figures_of(values: Sequence[int]) -> CardFigures:
    """``figures`` of the counters in ``COUNTERS`` order.

    A read serves one per stored row, so one per set combination: a thousand and more.
    """
    return CardFigures(**_figures(values))


class Figures(TypedDict):
    """The keyword arguments of a ``CardFigures``, or of a row that extends it."""

    offered: int
    picked: int
    pick_rate: float | None
    decks: int
    deck_wins: int
    win_rate: float | None
    win_interval: list[float] | None
    reveals: int
    average_power: float | None
    effects: int


def _figures(values: Sequence[int]) -> Figures:
    """``Figures`` of the counters in ``COUNTERS`` order."""
    offered, picked, decks, deck_wins, reveals, power_total, power_count, effects = values
    shown = win_shown(deck_wins=deck_wins, decks=decks)
    return {
        "offered": offered,
        "picked": picked,
        "pick_rate": _rate(picked, offered),
        "decks": decks,
        "deck_wins": deck_wins,
        "win_rate": shown.win_rate,
        "win_interval": shown.win_interval,
        "reveals": reveals,
        "average_power": _rate(power_total, power_count),
        "effects": effects,
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def card_stats(*, key: str, limit: int = PAGE, offset: int = 0) -> DesignStats:
    """A card design's figures, with one page of ``by_sets``. ``key`` is "Set/Name"."""
    found = card_figures(key=key)
    return DesignStats(
        key=key,
        total=found.total,
        by_player=found.by_player,
        simulation=found.simulation,
        by_sets=stats_by_sets(key=key, limit=limit, offset=offset),
    )


def card_figures(*, key: str) -> CardStats:
    """A card design's figures. ``by_sets``, per set combination, is read by the page.

    ``not_found``: never in the catalogue, and no play recorded.
    """
    set_name, _slash, name = key.partition("/")
    total, by_player = _read(key)
    if not by_player and not Card.objects.filter(card_set__name=set_name, name=name).exists():
        raise NotFoundError("not_found", _("No card %(key)r.") % {"key": key}, {"key": key})
    return CardStats(
        key=key,
        set=None,
        total=total,
        by_player=by_player,
        simulation=_simulation(key),
        by_sets=Combinations(key),
    )


def _read(key: str) -> tuple[CardFigures, list[FiguresByPlayer]]:
    """The figures of ``key``'s rows: their sum, and each kind of player's (five at most)."""
    found = CardStat.objects.filter(key=key, sets=ALL).order_by("player")
    total, by_player = Counts(), []
    for player, *values in found.values_list("player", *COUNTERS):
        total.add(Counts(*values))
        by_player.append(FiguresByPlayer(player=player, **_figures(values)))
    return figures(total), by_player


class Combinations(Sequence[FiguresBySets]):
    """``key``'s figures per set combination, by combination name, read as GraphQL pages them.

    There is one per combination it was played in: a thousand and more in time. A slice is one
    query on the unique index's first columns. The length is one count.
    """

    def __init__(self, key: str) -> None:
        self.key = key
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            self._count = CardStat.objects.filter(key=self.key, player=ALL).count()
        return self._count

    @overload
    def __getitem__(self, index: int) -> FiguresBySets: ...

    @overload
    def __getitem__(self, index: slice) -> list[FiguresBySets]: ...

    def __getitem__(self, index: int | slice) -> FiguresBySets | list[FiguresBySets]:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start, stop, _step = index.indices(len(self))
        return _combinations(self.key, limit=max(stop - start, 0), offset=start)


def _combinations(key: str, *, limit: int, offset: int) -> list[FiguresBySets]:
    rows = CardStat.objects.filter(key=key, player=ALL).order_by("sets")
    page = rows.values_list("sets", *COUNTERS)[offset : offset + limit]
    return [FiguresBySets(sets=sets, **_figures(values)) for sets, *values in page]


def stats_by_sets(*, key: str, limit: int, offset: int) -> FiguresPage:
    """One page of ``key``'s figures per set combination, by combination name.

    Paged as the tournament list is: ``count``, ``limit``, ``offset``, ``results``. Two queries
    on the unique index's first columns.
    """
    return FiguresPage(
        count=CardStat.objects.filter(key=key, player=ALL).count(),
        limit=limit,
        offset=offset,
        results=_combinations(key, limit=limit, offset=offset),
    )


def win_shown(*, deck_wins: int, decks: int) -> WinShown:
    """A win rate as every view shows it: the rate, its 95 % interval and the sample size.

    The admin's card list reads its annotations through this. ``figures_of`` serves the same.
    """
    interval = wilson(deck_wins, decks)
    return WinShown(
        decks=decks,
        deck_wins=deck_wins,
        win_rate=_rate(deck_wins, decks),
        win_interval=list(interval) if interval else None,
    )


def card_list_figures(cards: QuerySet[Card]) -> QuerySet[Card]:
    """``cards`` with their totals from stored play, in one query, sortable and filterable.

    The totals: ``stat_offered``, ``stat_picked``, ``stat_decks``, ``stat_deck_wins``,
    ``stat_pick_rate`` and ``stat_win_rate``. Rates are null without a sample. Each total is a
    subquery on the design's five rows per kind of player. The unique index finds them.
    """
    return cards.annotate(
        stat_offered=_total("offered"),
        stat_picked=_total("picked"),
        stat_decks=_total("decks"),
        stat_deck_wins=_total("deck_wins"),
    ).annotate(
        stat_pick_rate=_share("stat_picked", "stat_offered"),
        stat_win_rate=_share("stat_deck_wins", "stat_decks"),
    )


def _total(counter: str) -> Coalesce:
    key = Concat(OuterRef("card_set__name"), Value("/"), OuterRef("name"))
    rows = CardStat.objects.filter(key=key, sets=ALL).order_by().values("key")
    summed = rows.annotate(total=Sum(counter)).values("total")
    return Coalesce(Subquery(summed), 0, output_field=BigIntegerField())


def _share(part: str, whole: str) -> Case:
    ratio = Cast(part, FloatField()) / Cast(whole, FloatField())
    return Case(When(**{whole: 0}, then=None), default=ratio, output_field=FloatField())


def set_stats(*, name: str, limit: int = PAGE, offset: int = 0) -> SetStats:
    """A set's figures, every design of it summed, with one page of ``by_sets``.

    A deck holding two of its designs counts twice in ``decks``. ``not_found``: never in the
    catalogue, and no play recorded.
    """
    total, by_player = _read(name)
    _set_known(name, played=bool(by_player))
    by_sets = stats_by_sets(key=name, limit=limit, offset=offset)
    return SetStats(set=name, total=total, by_player=by_player, by_sets=by_sets)


def set_figures(*, name: str) -> CardStats:
    """A set's figures. ``by_sets``, per set combination, is read by the page.

    ``not_found`` as ``set_stats``.
    """
    total, by_player = _read(name)
    _set_known(name, played=bool(by_player))
    return CardStats(
        key=None,
        set=name,
        total=total,
        by_player=by_player,
        simulation=None,
        by_sets=Combinations(name),
    )


def _set_known(name: str, *, played: bool) -> None:
    if not played and not CardSet.objects.filter(name=name).exists():
        raise NotFoundError("not_found", _("No card set %(name)r.") % {"name": name}, {"set": name})


def _simulation(key: str) -> Simulation | None:
    latest = CardBalance.objects.filter(key=key).exclude(status="failed").first()
    return None if latest is None else simulation_view(latest)


def simulation_view(balance: CardBalance) -> Simulation:
    """A balance simulation as served.

    That is its progress, the win rates with and without the card, their intervals, and the
    difference.
    """
    with_interval = wilson(balance.wins_with, balance.done)
    without_interval = wilson(balance.wins_without, balance.done)
    with_rate = _rate(balance.wins_with, balance.done)
    without_rate = _rate(balance.wins_without, balance.done)
    return Simulation(
        status=balance.status,
        matches=balance.matches,
        done=balance.done,
        win_rate_with=with_rate,
        win_interval_with=list(with_interval) if with_interval else None,
        win_rate_without=without_rate,
        win_interval_without=list(without_interval) if without_interval else None,
        difference=None
        if with_rate is None or without_rate is None
        else round(with_rate - without_rate, 4),
        finished_at=balance.finished_at,
    )
