"""WebSocket routes. Each app adds its consumers' paths here (e.g. `ws/v1/matches/<id>/`)."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
