"""The tournament's GraphQL: queries, mutations and subscriptions over the same selectors and
services as the REST API (``tournaments.api``) and the stream (``tournaments.consumers``)."""

from __future__ import annotations

from tournaments.graphql.mutations import Mutation
from tournaments.graphql.queries import Query
from tournaments.graphql.subscriptions import Subscription

__all__ = ["Mutation", "Query", "Subscription"]
