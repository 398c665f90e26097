"""The Redis broker transport (``CELERY_BROKER_TRANSPORT``): kombu's, with one repair.

It keeps a Celery worker alive through a Redis restart.

Say the broker connection drops while a worker waits on Redis for the next message. The worker
still holds unacknowledged messages (a task running under ``acks_late``). Celery's consumer first
``collect()``s the connection. That detaches kombu's transport from its connection details. Then
the consumer closes the connection. Closing the channel restores the unacknowledged messages. The
restore needs a new Redis client, built from the transport's connection details. Those are gone:
``AttributeError: 'NoneType' object has no attribute 'hostname'``. Only connection errors are
ignored there. So the worker exits with ``Unrecoverable error`` (Celery 5.7.0 / kombu 5.7.0).

Here a detached channel's restore fails as a connection error instead. That happens anyway when it
finds Redis down. The channel closes, and the consumer reconnects. The messages stay in Redis's
unacknowledged index. The visibility timeout brings them back. A Redis that restarted empty lost
them; the reconciler queues again what the game still owes.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict[str, object]:
        if self.connection.client is None:
            raise RedisConnectionError("The broker connection was closed after a loss.")
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class Transport(kombu_redis.Transport):
    Channel = Channel
