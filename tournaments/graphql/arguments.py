"""Described argument types shared by the tournament's queries, mutations and subscriptions."""

from __future__ import annotations

from typing import Annotated

import strawberry

TournamentId = Annotated[int, strawberry.argument(description="The tournament's id.")]
MatchId = Annotated[int, strawberry.argument(description="The match's id.")]
After = Annotated[int, strawberry.argument(description="Only events after this seq (0: all).")]
Uids = Annotated[list[int], strawberry.argument(description="Card uids (at most 64).")]
