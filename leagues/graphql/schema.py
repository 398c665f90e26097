"""This app's GraphQL roots, composed by ``server.schema``.

Its ``Node`` s join the root ``node(id:)`` of ``tournaments.graphql``, which knows no league.
"""

from __future__ import annotations

import strawberry
from strawberry.tools import merge_types

from apikit.lists import connection_field
from leagues import organizing_actions
from leagues.graphql.mutations import Mutation
from leagues.graphql.nodes import NODES
from leagues.graphql.organizing import OrganizingQuery
from leagues.graphql.queries import Query as LeagueQuery
from leagues.graphql.schedules import ScheduleQuery
from leagues.lists import LISTED
from tournaments.graphql.queries import NODES as ROOT_NODES

ROOT_NODES.update(NODES)


# Every league list as a connection, made from its one declaration (as REST's list views are).
ListQuery = strawberry.type(
    type(
        "ListQuery",
        (),
        {listed.name: connection_field(listed) for listed in (*LISTED, *organizing_actions.LISTED)},
    )
)

Query = merge_types("Query", (LeagueQuery, ListQuery, ScheduleQuery, OrganizingQuery))


__all__ = ["Mutation", "Query"]
