"""A league's calendar over GraphQL: its scheduled starts as a connection, as REST's
``calendar/`` reads them (scheduling and check-in are actions: ``tournaments.leagues.actions``)."""

from __future__ import annotations

import strawberry

from config.graphql import DEFAULT_PAGE
from config.shapes import After, Page, page
from tournaments.graphql.queries import caller_seat
from tournaments.leagues import schedules
from tournaments.leagues.graphql.queries import Slug
from tournaments.leagues.graphql.types import ScheduleConnection


@strawberry.type
class ScheduleQuery:
    @strawberry.field(description="A league's scheduled tournaments by start time.")
    def calendar(
        self, info: strawberry.Info, slug: Slug, first: Page = DEFAULT_PAGE, after: After = None
    ) -> ScheduleConnection:
        caller_seat(info)  # ``bad_token`` for an unknown token, as REST
        return page(schedules.calendar(slug), first=first, after=after)
