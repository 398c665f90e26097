"""The leagues' GraphQL: queries over ``tournaments.leagues.selectors`` and organizer mutations
over ``tournaments.leagues.services``, as the REST views (``tournaments.leagues.api``) call them.
``config.schema`` composes them into the root schema (nothing else imports the leagues app)."""

from __future__ import annotations

from tournaments.leagues.graphql.mutations import Mutation
from tournaments.leagues.graphql.queries import Query

__all__ = ["Mutation", "Query"]
