"""The league objects of GraphQL, made from their one declaration (``leagues.shapes``
through ``apikit.shapes.graphql_type``): no field is written twice. Every list of objects in them
is a connection (``first``/``after``, ``last``/``before``); leagues, seasons and members are
``Node`` s (the lists' connections are made with their root fields: ``apikit.lists``)."""

from __future__ import annotations

from apikit.shapes import graphql_type
from leagues import shapes

LeagueItem = graphql_type(shapes.LeagueItem)
LeagueView = graphql_type(shapes.LeagueView)
SeasonView = graphql_type(shapes.SeasonView)
Standings = graphql_type(shapes.Standings)
MemberHistory = graphql_type(shapes.MemberHistory)
MemberItem = graphql_type(shapes.MemberItem)
CorrectionView = graphql_type(shapes.CorrectionView)
WebhookItem = graphql_type(shapes.WebhookItem)
Delivery = graphql_type(shapes.Delivery)
ScheduleView = graphql_type(shapes.ScheduleView)
TournamentScheduleView = graphql_type(shapes.TournamentScheduleView)
TournamentResults = graphql_type(shapes.TournamentResults)
