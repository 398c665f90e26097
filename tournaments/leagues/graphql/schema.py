"""This app's GraphQL roots, composed by ``config.schema``; its ``Node`` s join the root
``node(id:)`` of ``tournaments.graphql`` (which knows no league)."""

from __future__ import annotations

import strawberry

from tournaments.graphql.queries import NODES as ROOT_NODES
from tournaments.leagues.graphql.managing import ManagementQuery
from tournaments.leagues.graphql.mutations import Mutation
from tournaments.leagues.graphql.nodes import NODES
from tournaments.leagues.graphql.queries import Query as LeagueQuery
from tournaments.leagues.graphql.schedules import ScheduleQuery

ROOT_NODES.update(NODES)


@strawberry.type
class Query(LeagueQuery, ManagementQuery, ScheduleQuery):
    pass


__all__ = ["Mutation", "Query"]
