"""GraphQL types of a tournament, as one viewer may see it.

Each type is made from the shape REST renders. The tournament's shape is in ``tournaments.shapes``.
A match's and its events' are in ``matches.shapes``; the log's in ``tournaments.log_shapes``.
GraphQL reads no model field that REST does not show. So selecting every field learns nothing REST
hides.
"""

from __future__ import annotations

from apikit.shapes import connection_type, graphql_type
from matches import shapes as match_shapes
from tournaments import log_shapes, shapes

# The tournament's types, made from its shapes (``tournaments.shapes``): no field is written twice.
TournamentView = graphql_type(shapes.TournamentView)
SeatView = graphql_type(shapes.SeatView)
Ticket = graphql_type(shapes.Ticket)
TournamentListItem = graphql_type(shapes.TournamentListItem)
AdviceView = graphql_type(shapes.AdviceView)
ChatConnection = connection_type(shapes.ChatMessage)


# A match's objects and the log's events, made from their one declaration (``matches.shapes``,
# ``tournaments.log_shapes``): no field is written twice.
MatchSeat = graphql_type(match_shapes.MatchSeat)
Question = graphql_type(match_shapes.Question)
MatchEventView = graphql_type(match_shapes.MatchEventView)
MatchView = graphql_type(match_shapes.MatchView)
TournamentEventView = graphql_type(log_shapes.TournamentEventView)
MatchConnection = connection_type(match_shapes.MatchView)
TournamentEventConnection = connection_type(log_shapes.TournamentEventView)
