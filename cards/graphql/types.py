"""The catalogue's GraphQL objects, made from their one declaration (``cards.shapes`` through
``apikit.shapes.graphql_type``): cards and card sets are ``Node`` s, a set's ``cards`` a
connection."""

from __future__ import annotations

from apikit.shapes import connection_type, graphql_type
from cards import shapes

Card = graphql_type(shapes.Card)
CardSet = graphql_type(shapes.CardSet)
CardConnection = connection_type(shapes.Card)
CardSetConnection = connection_type(shapes.CardSet)
