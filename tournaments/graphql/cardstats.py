"""Card statistics in GraphQL.

The ``cardStats(key:)`` and ``setStats(name:)`` fields answer ``CardStats``. It is made from its one
declaration (``tournaments.cardstats_shapes``). Its ``bySets`` is a connection; the selector reads
its pages one at a time. ``byPlayer`` (five rows at most) is a connection too. So is every list.
"""

from __future__ import annotations

from apikit.shapes import graphql_type
from tournaments import cardstats_shapes as shapes

CardStats = graphql_type(shapes.CardStats)
