"""A test-only worker module (``celery … -I tests.workers.sleepy``): a task that takes its time.

``nap`` holds a pool process for ``seconds`` under ``acks_late``, so the worker holds an
unacknowledged message while its consumer waits on Redis for the next one: the state in which
a Redis restart used to kill the worker (``infra.broker``).
"""

from __future__ import annotations

import time

from server.celery import app

NAP = "tests.workers.sleepy.nap"


@app.task(name=NAP, acks_late=True)
def nap(seconds: float) -> None:
    time.sleep(seconds)
