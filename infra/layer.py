"""Sending to the channel layer from synchronous code (services, Celery tasks, WSGI views).

``async_to_sync(layer.group_send)`` from a thread without an event loop has a cost. It makes a loop
in a new thread for every call. The channels-redis layer keeps its connections per loop. So every
send opened and dropped a Redis connection. That cost ~1.4 ms of worker CPU per nudge, a few per
match (docs/performance.md). On the Redis layer, the sends here go to one event loop per process. It
runs in a daemon thread and keeps its connections. The caller still waits for the send, as before.
Other layers are sent to as before: their queues belong to the server's loop. Those are the
in-memory layers of the embedded server and the tests.
"""

from __future__ import annotations

import asyncio
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer

SEND_TIMEOUT = 5.0


class _SenderLoop:
    """An event loop in one of this process's daemon threads."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="layer-sender", daemon=True).start()


_sender: _SenderLoop | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """This process's sender loop; threads do not survive a fork, so each child makes its own."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender.pid != os.getpid():
            _sender = _SenderLoop()
        return _sender.loop


def group_send(group: str, message: dict[str, object]) -> bool:
    """Send ``message`` to ``group``; ``False`` without a channel layer."""
    layer: BaseChannelLayer | None = get_channel_layer()
    if layer is None:
        return False
    if isinstance(layer, RedisChannelLayer):
        coroutine = layer.group_send(group, message)
        asyncio.run_coroutine_threadsafe(coroutine, _sender_loop()).result(SEND_TIMEOUT)
    else:
        async_to_sync(layer.group_send)(group, message)
    return True
