"""The leagues' ``Node`` s, found by ``node(id:)`` (the root query of ``tournaments.graphql``):
each global id's type name to the selector that reads that object for the caller."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry

from tournaments.leagues import selectors
from tournaments.leagues.graphql.queries import caller_organizer
from tournaments.selectors.viewers import Organizer

Reader = Callable[[int, Organizer | None], Any]

READERS: dict[str, Reader] = {
    "LeagueItem": selectors.league_item_by_id,
    "LeagueView": selectors.league_by_id,
    "SeasonView": selectors.season_by_id,
    "MemberHistory": selectors.member_by_id,
    "MemberItem": selectors.member_item_by_id,
}


def _node(read: Reader) -> Callable[[strawberry.Info, int], Any]:
    def found(info: strawberry.Info, number: int) -> Any:
        return read(number, caller_organizer(info))

    return found


NODES = {name: _node(read) for name, read in READERS.items()}
