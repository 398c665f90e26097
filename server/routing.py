"""WebSocket routes: the apps' under ``ws/``, GraphQL's at ``graphql/``."""

from __future__ import annotations

from typing import Any

from django.urls import path, re_path

from server.graphql_views import graphql_socket
from tournaments.consumers import TournamentConsumer, UnknownStreamConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    # GraphQL subscriptions (graphql-transport-ws): under ws/ as every socket (the full stack's
    # proxy sends ws/ to Daphne), and on the path of the HTTP queries for the embedded server.
    path("ws/graphql/", graphql_socket),
    path("graphql/", graphql_socket),
    # Last: any other path (a missing slash, a word for an id) is refused with close code 4404,
    # not a failed handshake.
    re_path(r"", UnknownStreamConsumer.as_asgi()),
]
