"""Described argument types for the tournament's queries, mutations and subscriptions.

An argument naming a tournament or match takes its global ``ID``. A number is still taken,
deprecated. ``tournament_number`` and ``match_number`` read it as mutation inputs are read."""

from __future__ import annotations

from typing import Annotated

import strawberry

from apikit.global_ids import described, number_of
from tournaments.actions import MATCH, TOURNAMENT

TournamentId = Annotated[
    strawberry.ID,
    strawberry.argument(description=described(TOURNAMENT.description, TOURNAMENT.nodes)),
]
MatchId = Annotated[
    strawberry.ID, strawberry.argument(description=described(MATCH.description, MATCH.nodes))
]
After = Annotated[int, strawberry.argument(description="Only events after this seq (0: all).")]


def tournament_number(value: strawberry.ID | int, field: str = "tournamentId") -> int:
    """The tournament's number an argument names.

    Else ``invalid``, naming ``field``.
    """
    return number_of(value, field, TOURNAMENT.nodes)


def match_number(value: strawberry.ID | int, field: str = "matchId") -> int:
    """The match's number an argument names.

    Else ``invalid``, naming ``field``.
    """
    return number_of(value, field, MATCH.nodes)
