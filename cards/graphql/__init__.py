"""The card catalogue over GraphQL: card sets and cards.

They are filtered as the REST card API filters, with the same FilterSet (``cards.filters``). So
the errors are the same: ``unknown_set`` and ``invalid``."""

from __future__ import annotations

from cards.graphql.schema import NODES, Query

__all__ = ["NODES", "Query"]
