"""The open-streams gauge (``challengers_websocket_connections``) counts sockets open now: a
stream whose connect fails after it was counted (the channel layer's Redis does not answer, as
during a Redis outage) is uncounted, so the gauge never drifts up through faults."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.asgi import application
from tests.ops.helpers import finished_bot_tournaments
from tests.ops.scrape import scrape, value

pytestmark = pytest.mark.django_db(transaction=True)

GAUGE = "challengers_websocket_connections"
# A Redis channel layer on a port nobody listens on: joining the tournament's group fails.
DEAD_LAYER = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
    }
}
FAILED_CONNECTS = 3


async def open_streams() -> float:
    samples, _ = await database_sync_to_async(scrape)()
    return value(samples, GAUGE)


async def connect_and_fail(tid: int) -> None:
    """Open a stream that fails in its connect; wait until the consumer has ended."""
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tid}/")
    # The consumer's failure comes back out of whichever call meets it first.
    with suppress(Exception):
        await socket.connect(timeout=30)
        await socket.receive_nothing(timeout=5, interval=0.05)
    with suppress(Exception):
        await socket.wait(timeout=30)


async def test_a_stream_whose_connect_fails_is_not_left_counted_open(
    catalogue: Any, settings: Any
) -> None:
    (tid,) = await database_sync_to_async(finished_bot_tournaments)(1)
    before = await open_streams()
    settings.CHANNEL_LAYERS = DEAD_LAYER
    for _ in range(FAILED_CONNECTS):
        await connect_and_fail(tid)
    assert await open_streams() == before
