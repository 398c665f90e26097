"""A stored setup (JSON on the match row) as the engine's ``MatchSetup``."""

from __future__ import annotations

from typing import TypedDict

from matches.engine.cards import CardSpec
from matches.engine.model import MatchSetup


class StoredSetup(TypedDict):
    """A match row's ``setup``: its cards and the table's state it is played in.

    Cards are ``[uid, key]`` pairs top → bottom (JSON lists). The state is named as ``MatchSetup``
    names it."""

    decks: dict[str, list[tuple[int, str]]]
    round: int
    first: str | None
    park: str
    piles: dict[str, list[tuple[int, str]]]
    trophies: dict[str, int]
    fans: dict[str, int]
    lost_previous: dict[str, bool]
    sets_in_play: list[str]
    robot: str | None
    final: bool


def setup_from_data(
    data: StoredSetup, specs: dict[str, CardSpec], *, rules_version: int
) -> MatchSetup:
    """The engine's ``MatchSetup`` for a stored setup, played by ``rules_version``.

    That is the match row's version. A match replays by the rules it was played by."""
    return MatchSetup(
        decks={
            side: tuple((uid, key) for uid, key in refs) for side, refs in data["decks"].items()
        },
        round=data["round"],
        first=data["first"],
        park=data["park"],
        shuffle=True,
        piles={
            level: tuple((uid, key) for uid, key in refs) for level, refs in data["piles"].items()
        },
        trophies=data["trophies"],
        fans=data["fans"],
        lost_previous=data["lost_previous"],
        sets_in_play=tuple(data["sets_in_play"]),
        robot=data["robot"],
        final=data["final"],
        specs=specs,
        rules_version=rules_version,
    )
