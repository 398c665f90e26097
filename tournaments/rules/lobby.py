"""What the host of a lobby may do next (pure: no Django)."""

from __future__ import annotations

LOBBY_ACTIONS = ("add_bots", "start")
RECLAIM_ACTIONS = ("reclaim",)


def lobby_actions(*, is_host: bool, free_seats: int) -> list[str]:
    """The host's lobby actions: ``add_bots`` while seats are free, ``start`` once none is."""
    if not is_host:
        return []
    if free_seats:
        return ["add_bots"]
    return ["start"]


def reclaim_actions() -> list[str]:
    """A dropped seat's owner may only take it back. A bot plays it meanwhile."""
    return ["reclaim"]
