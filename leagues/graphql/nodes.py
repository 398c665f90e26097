"""The leagues' ``Node`` s, found by ``node(id:)``, the root query of ``tournaments.graphql``.

Each global id's type name maps to a selector. It reads that object for the caller. Their ids hold
one number (``LeagueView:3``). ``node_of`` parses and checks it as it does a tournament's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry

from leagues.graphql.queries import caller_organizer
from leagues.selectors import leagues as selectors
from tournaments.selectors.viewers import Organizer

Reader = Callable[[int, Organizer | None], Any]

READERS: dict[str, Reader] = {
    "LeagueItem": selectors.league_item_by_id,
    "LeagueView": selectors.league_by_id,
    "SeasonView": selectors.season_by_id,
    "MemberHistory": selectors.member_by_id,
    "MemberItem": selectors.member_item_by_id,
    "WebhookItem": selectors.webhook_item_by_id,
    "Delivery": selectors.delivery_by_id,
    "CorrectionView": selectors.correction_by_id,
}


def _node(read: Reader) -> Callable[[strawberry.Info, int], object]:
    def found(info: strawberry.Info, number: int) -> object:
        return read(number, caller_organizer(info))

    return found


# As ``tournaments.graphql.queries.NODES``: (how many numbers the id holds, its reader).
NODES: dict[str, tuple[int, Callable[..., Any]]] = {
    name: (1, _node(read)) for name, read in READERS.items()
}
