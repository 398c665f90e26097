"""WebSocket routes: each app's consumers, under ``ws/``."""

from __future__ import annotations

from typing import Any

from django.urls import path, re_path

from tournaments.consumers import TournamentConsumer, UnknownStreamConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    # Last: any other path (a missing slash, a word for an id) is refused with close code 4404,
    # not a failed handshake.
    re_path(r"", UnknownStreamConsumer.as_asgi()),
]
