"""This app's GraphQL roots, composed by ``config.schema``."""

from __future__ import annotations

import strawberry

from tournaments.leagues.graphql.managing import ManagementQuery
from tournaments.leagues.graphql.mutations import Mutation
from tournaments.leagues.graphql.queries import Query as LeagueQuery


@strawberry.type
class Query(LeagueQuery, ManagementQuery):
    pass


__all__ = ["Mutation", "Query"]
