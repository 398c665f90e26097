"""This app's GraphQL roots, composed by ``server.schema``."""

from __future__ import annotations

import strawberry

from tournaments.graphql.chat import ChatQuery
from tournaments.graphql.mutations import Mutation
from tournaments.graphql.queries import Query as TournamentQuery
from tournaments.graphql.subscriptions import Subscription


@strawberry.type
class Query(TournamentQuery, ChatQuery):
    pass


__all__ = ["Mutation", "Query", "Subscription"]
