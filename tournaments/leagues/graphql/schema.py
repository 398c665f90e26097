"""This app's GraphQL roots, composed by ``config.schema``."""

from __future__ import annotations

import strawberry

from tournaments.leagues.graphql.managing import ManagementQuery
from tournaments.leagues.graphql.mutations import Mutation
from tournaments.leagues.graphql.queries import Query as LeagueQuery
from tournaments.leagues.graphql.schedules import ScheduleQuery


@strawberry.type
class Query(LeagueQuery, ManagementQuery, ScheduleQuery):
    pass


__all__ = ["Mutation", "Query"]
