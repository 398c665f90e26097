"""The leagues' GraphQL: queries over ``tournaments.leagues.selectors`` and organizer mutations
over ``tournaments.leagues.services`` (``managing`` for corrections and management), as the REST
views (``tournaments.leagues.api``) call them. ``config.schema`` composes them into the root
schema (nothing else imports the leagues app)."""

from __future__ import annotations

import strawberry

from tournaments.leagues.graphql.managing import ManagementMutation, ManagementQuery
from tournaments.leagues.graphql.mutations import Mutation as LeagueMutation
from tournaments.leagues.graphql.queries import Query as LeagueQuery
from tournaments.leagues.graphql.schedules import ScheduleMutation, ScheduleQuery


@strawberry.type
class Query(LeagueQuery, ManagementQuery, ScheduleQuery):
    pass


@strawberry.type
class Mutation(LeagueMutation, ManagementMutation, ScheduleMutation):
    pass


__all__ = ["Mutation", "Query"]
