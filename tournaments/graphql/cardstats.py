"""Card statistics in GraphQL: the ``cardStats(key:)`` and ``setStats(name:)`` fields answer
``CardStats``, made from its one declaration (``tournaments.cardstats_shapes``); its ``bySets``
is a connection whose pages the selector reads one at a time, and ``byPlayer`` (five rows at
most) a connection as every list is."""

from __future__ import annotations

from apikit.shapes import graphql_type
from tournaments import cardstats_shapes as shapes

CardStats = graphql_type(shapes.CardStats)
