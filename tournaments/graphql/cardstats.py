"""Card statistics in GraphQL: the ``cardStats(key:)`` and ``setStats(name:)`` fields, with the
shape of ``GET /api/v1/cards/{key}/stats/`` (built from the same selector's view)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry

from config.graphql import DEFAULT_PAGE, Connection, connection, offset_of, page_size
from tournaments.enums import SimulationStatus
from tournaments.selectors.cardstats import stats_by_sets


@strawberry.type(description="Figures from stored play (rates null without a sample).")
class CardFigures:
    offered: int = strawberry.field(description="Copies shown in Deck Phase displays.")
    picked: int = strawberry.field(description="Copies kept.")
    pick_rate: float | None = strawberry.field(description="picked / offered.")
    decks: int = strawberry.field(description="Match sides whose deck held it (sample size).")
    deck_wins: int = strawberry.field(description="Of those, the sides that won.")
    win_rate: float | None = strawberry.field(description="deck_wins / decks.")
    win_interval: list[float] | None = strawberry.field(
        description="The win rate's 95 % Wilson interval [low, high]."
    )
    reveals: int = strawberry.field(description="Copies revealed in matches.")
    average_power: float | None = strawberry.field(description="Mean power per attack.")
    effects: int = strawberry.field(description="Times its effect resolved.")


@strawberry.type(description="Figures of one set combination.")
class FiguresBySets(CardFigures):
    sets: str = strawberry.field(description="The sets in play, sorted, joined by +.")


@strawberry.type(description="Figures of one kind of player.")
class FiguresByPlayer(CardFigures):
    player: str = strawberry.field(description="human, rookie, steady, champion or robot.")


@strawberry.type(description="A balance simulation: paired bot matches with and without it.")
class Simulation:
    status: SimulationStatus = strawberry.field(description="queued, running, done or failed.")
    matches: int = strawberry.field(description="Pairs of matches asked for.")
    done: int = strawberry.field(description="Pairs played so far.")
    win_rate_with: float | None = strawberry.field(description="Win rate with the card.")
    win_interval_with: list[float] | None = strawberry.field(description="Its 95 % interval.")
    win_rate_without: float | None = strawberry.field(description="Win rate without it.")
    win_interval_without: list[float] | None = strawberry.field(description="Its 95 % interval.")
    difference: float | None = strawberry.field(description="with - without.")
    finished_at: datetime | None = strawberry.field(description="When it finished.")


@strawberry.type(description="A card design's or a set's figures from stored play.")
class CardStats:
    key: str | None = strawberry.field(description='The design, "Set/Name" (null for a set).')
    set: str | None = strawberry.field(description="The set (null for a design).")
    total: CardFigures = strawberry.field(description="Over all recorded play.")
    by_player: list[FiguresByPlayer] = strawberry.field(
        description="Per kind of player: human, each bot strength, the Robot (five at most)."
    )
    simulation: Simulation | None = strawberry.field(
        description="A design's latest balance simulation (null for a set or none)."
    )
    rows: strawberry.Private[str]  # the stored rows' key: the design's "Set/Name" or the set's

    @strawberry.field(description="Per set combination, by combination name: a page of them.")
    def by_sets(
        self,
        first: Annotated[int, strawberry.argument(description="Page size, 1-100.")] = DEFAULT_PAGE,
        after: Annotated[str | None, strawberry.argument(description="A cursor.")] = None,
    ) -> Connection[FiguresBySets]:
        size, start = page_size(first), offset_of(after)
        page = stats_by_sets(key=self.rows, limit=size, offset=start)
        items = [FiguresBySets(**row) for row in page["results"]]
        return connection(items, offset=start, total=page["count"])


def card_stats_type(view: dict[str, Any]) -> CardStats:
    """The GraphQL type of a ``tournaments.selectors.cardstats`` view (``card_figures``'s or
    ``set_figures``'s: the combinations are read by ``bySets``, a page at a time)."""
    return CardStats(
        key=view.get("key"),
        set=view.get("set"),
        total=CardFigures(**view["total"]),
        by_player=[FiguresByPlayer(**row) for row in view["by_player"]],
        simulation=Simulation(**view["simulation"]) if view.get("simulation") else None,
        rows=view.get("key") or view["set"],
    )
