"""The project's Celery app as the workers that tests start run it: on a queue of their own.

``celery -A tests.workers.app worker -Q <queue>`` is ``celery -A server worker`` with two test-only
changes read from ``WORKER_TEST_QUEUE``: the tasks a worker queues itself (the next round's bots,
its matches) go to that queue, not to the shared default one, and the Redis transport keeps the
worker's unacknowledged messages under keys of that queue, so a worker started with a short
visibility timeout only ever takes back the tasks of its own test.
"""

from __future__ import annotations

import os

from server.celery import app

QUEUE = os.environ["WORKER_TEST_QUEUE"]

app.conf.task_default_queue = QUEUE
app.conf.broker_transport_options = {
    **app.conf.broker_transport_options,
    **{key: f"{QUEUE}.{key}" for key in ("unacked_key", "unacked_index_key", "unacked_mutex_key")},
}

__all__ = ["app"]
