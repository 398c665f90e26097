"""Scheduled starts, check-in and the league's calendar over GraphQL: REST's inputs, service,
answers and refusals (``tournaments.leagues.api.management``)."""

from __future__ import annotations

import datetime
from typing import Annotated

import strawberry

from config.graphql import Error
from tournaments.graphql.mutations import valid
from tournaments.graphql.queries import caller_seat
from tournaments.leagues import schedules
from tournaments.leagues.api import inputs
from tournaments.leagues.graphql.mutations import refusable
from tournaments.leagues.graphql.queries import Slug, caller_organizer

TournamentId = Annotated[int, strawberry.argument(description="The tournament's id.")]


@strawberry.type(description="A league tournament's scheduled start, as the calendar shows it.")
class ScheduleView:
    tournament: int = strawberry.field(description="Tournament id.")
    season: int = strawberry.field(description="Season id.")
    status: str = strawberry.field(description="The tournament's status.")
    starts_at: datetime.datetime = strawberry.field(description="When it starts by itself.")
    checkin_opens_at: datetime.datetime = strawberry.field(description="When check-in opens.")
    checked_in: list[int] = strawberry.field(description="Seats checked in (numbers from 1).")
    outcome: str | None = strawberry.field(description="started, cancelled or skipped; none yet.")
    reason: str = strawberry.field(description="Why it was cancelled.")


@strawberry.type(description="A seat's check-in.")
class CheckInView:
    seat: int = strawberry.field(description="The seat's number (from 1).")
    checked_in_at: datetime.datetime = strawberry.field(description="When it checked in.")


SchedulePayload = Annotated[
    ScheduleView | Error, strawberry.union("SchedulePayload", description="Or why not.")
]
CheckInPayload = Annotated[
    CheckInView | Error, strawberry.union("CheckInPayload", description="Or why not.")
]


@strawberry.type
class ScheduleQuery:
    @strawberry.field(description="A league's scheduled tournaments by start time.")
    def calendar(self, info: strawberry.Info, slug: Slug) -> list[ScheduleView]:
        caller_seat(info)
        return [ScheduleView(**item) for item in schedules.calendar(slug)]


@strawberry.type
class ScheduleMutation:
    @strawberry.mutation(description="A league's organizer schedules a lobby's start.")
    def schedule_start(
        self,
        info: strawberry.Info,
        slug: Slug,
        tournament: TournamentId,
        starts_at: Annotated[str, strawberry.argument(description="ISO 8601.")],
        checkin_minutes: Annotated[int, strawberry.argument(description="1-1440.")] = 30,
    ) -> SchedulePayload:
        body = {"starts_at": starts_at, "checkin_minutes": checkin_minutes}

        def run() -> ScheduleView:
            data = valid(inputs.ScheduleInput, body)
            made = schedules.schedule_set(
                organizer=caller_organizer(info), slug=slug, tournament_id=tournament, **data
            )
            return ScheduleView(**schedules.schedule_view(made))

        result: ScheduleView | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="The calling seat checks in for its scheduled start.")
    def check_in(self, info: strawberry.Info, tournament: TournamentId) -> CheckInPayload:
        def run() -> CheckInView:
            checkin = schedules.seat_checkin(tournament_id=tournament, seat=caller_seat(info))
            return CheckInView(seat=checkin.seat.number + 1, checked_in_at=checkin.at)

        result: CheckInView | Error = refusable(run, info, None)
        return result
