"""The card catalogue over GraphQL: card sets and cards, filtered as the REST card API filters
(``cards.filters``: the same FilterSet, so the same ``unknown_set`` and ``invalid``)."""

from __future__ import annotations

from cards.graphql.schema import NODES, Query

__all__ = ["NODES", "Query"]
