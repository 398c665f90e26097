"""The card statistics' responses, declared once (``apikit.shapes``).

``tournaments.selectors.cardstats`` builds them. REST renders ``DesignStats`` and ``SetStats``
(``GET /api/v1/cards/{key}/stats/``, ``/card-sets/{name}/stats/``). There ``by_sets`` is one page of
``limit``/``offset``. GraphQL's ``cardStats``/``setStats`` answer ``CardStats``. Its ``bySets`` is a
connection, read by the page. Field order is REST's key order.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from apikit.shapes import Shape, field, shape
from tournaments.enums import SimulationStatus

INTERVAL = "The win rate's 95 % Wilson interval [low, high]; null without a match."
PLAYERS = "Per kind of player: human, each bot strength, the Robot (five at most)."


@shape("A win rate as every view shows it: the rate, its interval and its sample size.")
class WinShown(Shape):
    decks: int = field("Match sides whose deck held it (sample size).")
    deck_wins: int = field("Of those, the sides that won.")
    win_rate: float | None = field("deck_wins / decks.")
    win_interval: list[float] | None = field(INTERVAL)


@shape("Figures from stored play (rates null without a sample).")
class CardFigures(Shape):
    offered: int = field("Copies shown in Deck Phase displays.")
    picked: int = field("Copies kept.")
    pick_rate: float | None = field("picked / offered.")
    decks: int = field("Match sides whose deck held it (sample size).")
    deck_wins: int = field("Of those, the sides that won.")
    win_rate: float | None = field("deck_wins / decks.")
    win_interval: list[float] | None = field(INTERVAL)
    reveals: int = field("Copies revealed in matches.")
    average_power: float | None = field("Mean power per attack.")
    effects: int = field("Times its effect resolved.")


@shape("Figures of one set combination.")
class FiguresBySets(CardFigures):
    sets: str = field("The sets in play, sorted, joined by +.")


@shape("Figures of one kind of player.")
class FiguresByPlayer(CardFigures):
    player: str = field("human, rookie, steady, champion or robot.")


@shape("A balance simulation: paired bot matches with and without the card.")
class Simulation(Shape):
    status: str = field("queued, running, done or failed.", enum=SimulationStatus)
    matches: int = field("Pairs of matches asked for.")
    done: int = field("Pairs played so far.")
    win_rate_with: float | None = field("Win rate with the card.")
    win_interval_with: list[float] | None = field("Its 95 % interval.")
    win_rate_without: float | None = field("Win rate without it.")
    win_interval_without: list[float] | None = field("Its 95 % interval.")
    difference: float | None = field("with - without.")
    finished_at: datetime.datetime | None = field("When it finished.")


@shape("One page of the figures per set combination, by combination name.")
class FiguresPage(Shape):
    count: int = field("Set combinations with recorded play.")
    limit: int = field("The page size asked (1-100, default 20).")
    offset: int = field("Combinations skipped before this page.")
    results: list[FiguresBySets] = field("This page of them, by combination name.")


@shape("A card design's figures from stored play.")
class DesignStats(Shape):
    key: str = field('"Set/Name".')
    total: CardFigures = field("Over all recorded play.")
    by_player: list[FiguresByPlayer] = field(PLAYERS)
    simulation: Simulation | None = field(
        "The latest balance simulation: paired bot matches with and without the card."
    )
    by_sets: FiguresPage = field("Per set combination, paged with limit and offset.")


@shape("A card set's figures from stored play (every design of it summed).")
class SetStats(Shape):
    set: str = field("The set's name.")
    total: CardFigures = field("Over all recorded play.")
    by_player: list[FiguresByPlayer] = field(PLAYERS)
    by_sets: FiguresPage = field("Per set combination, paged with limit and offset.")


@shape("A card design's or a set's figures from stored play.")
class CardStats(Shape):
    key: str | None = field('The design, "Set/Name" (null for a set).')
    set: str | None = field("The set (null for a design).")
    total: CardFigures = field("Over all recorded play.")
    by_player: list[FiguresByPlayer] = field(PLAYERS)
    simulation: Simulation | None = field(
        "A design's latest balance simulation (null for a set or none)."
    )
    by_sets: Sequence[FiguresBySets] = field(
        "Per set combination, by combination name (read a page at a time)."
    )
