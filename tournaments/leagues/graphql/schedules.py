"""A league's calendar over GraphQL: its scheduled starts as a connection, as REST's
``calendar/`` reads them, and one tournament's schedule with the caller's check-in (scheduling
and check-in are actions: ``tournaments.leagues.actions``)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from config.graphql_pages import Page, page_of, paged
from tournaments.graphql.queries import caller_seat
from tournaments.leagues import schedules
from tournaments.leagues.graphql.queries import Slug
from tournaments.leagues.graphql.types import ScheduleConnection, TournamentScheduleView
from tournaments.leagues.shapes import TournamentScheduleView as TournamentScheduleShape


@strawberry.type
class ScheduleQuery:
    @strawberry.field(description="A league's scheduled tournaments by start time.")
    @paged()
    def calendar(
        self,
        info: strawberry.Info,
        slug: Slug,
        page: Page,
    ) -> ScheduleConnection:
        caller_seat(info)  # ``bad_token`` for an unknown token, as REST
        return page_of(schedules.calendar(slug), page)

    @strawberry.field(
        description="A tournament's scheduled start, its league and the calling seat's check-in "
        "(REST: GET /api/v1/leagues/tournaments/{id}/checkin/); `not_scheduled` without one."
    )
    def tournament_schedule(
        self,
        info: strawberry.Info,
        tournament: Annotated[int, strawberry.argument(description="Tournament id.")],
    ) -> TournamentScheduleView:
        found: TournamentScheduleShape = schedules.tournament_schedule(
            tournament_id=tournament, seat=caller_seat(info)
        )
        return found
