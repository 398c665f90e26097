"""A league's calendar over GraphQL: its scheduled starts, as REST's ``calendar/`` reads them
(scheduling and check-in are actions: ``tournaments.leagues.actions``)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from tournaments.graphql.queries import caller_seat
from tournaments.leagues import schedules
from tournaments.leagues.graphql.queries import Slug
from tournaments.leagues.graphql.types import ScheduleView


@strawberry.type(description="The calling seat's check-in for its tournament's scheduled start.")
class YourCheckIn:
    seat: int = strawberry.field(description="The calling seat's number (from 1).")
    checked_in: bool = strawberry.field(description="Whether it checked in.")


@strawberry.type(description="A tournament's scheduled start as its lobby reads it.")
class TournamentScheduleView(ScheduleView):
    league: str = strawberry.field(description="The league's slug.")
    you: YourCheckIn | None = strawberry.field(
        description="The calling seat of this tournament; none for anyone else."
    )


@strawberry.type
class ScheduleQuery:
    @strawberry.field(description="A league's scheduled tournaments by start time.")
    def calendar(self, info: strawberry.Info, slug: Slug) -> list[ScheduleView]:
        caller_seat(info)  # ``bad_token`` for an unknown token, as REST
        return [ScheduleView(**item) for item in schedules.calendar(slug)]

    @strawberry.field(
        description="A tournament's scheduled start, its league and the calling seat's check-in "
        "(REST: GET /api/v1/leagues/tournaments/{id}/checkin/); `not_scheduled` without one."
    )
    def tournament_schedule(
        self,
        info: strawberry.Info,
        tournament: Annotated[int, strawberry.argument(description="Tournament id.")],
    ) -> TournamentScheduleView:
        found = schedules.tournament_schedule(tournament_id=tournament, seat=caller_seat(info))
        you = found.pop("you")
        return TournamentScheduleView(**found, you=YourCheckIn(**you) if you else None)
