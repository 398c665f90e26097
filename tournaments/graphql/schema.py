"""This app's GraphQL roots, composed by ``config.schema``."""

from __future__ import annotations

from tournaments.graphql.mutations import Mutation
from tournaments.graphql.queries import Query
from tournaments.graphql.subscriptions import Subscription

__all__ = ["Mutation", "Query", "Subscription"]
