"""A league's calendar over GraphQL: its scheduled starts, as REST's ``calendar/`` reads them
(scheduling and check-in are actions: ``tournaments.leagues.actions``)."""

from __future__ import annotations

import strawberry

from tournaments.graphql.queries import caller_seat
from tournaments.leagues import schedules
from tournaments.leagues.graphql.queries import Slug
from tournaments.leagues.graphql.types import ScheduleView


@strawberry.type
class ScheduleQuery:
    @strawberry.field(description="A league's scheduled tournaments by start time.")
    def calendar(self, info: strawberry.Info, slug: Slug) -> list[ScheduleView]:
        caller_seat(info)  # ``bad_token`` for an unknown token, as REST
        return [ScheduleView(**item) for item in schedules.calendar(slug)]
