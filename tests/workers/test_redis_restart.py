"""A Celery worker outlives Redis restarts: it reconnects and takes the next task.

The worker runs as compose runs it (a prefork pool of two) against a Redis server of the test's
own (``scripts/private_services.py``), never the machine's. Each round starts a long task (the
worker then holds an unacknowledged message while its consumer waits on Redis for the next one:
the state in which the restart used to kill it, ``infra.broker``), stops Redis, starts it
again empty, and sends a task at once: the same worker process must run it.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.celery import app as celery_app
from tests.workers.conftest import Worker, Workers, full_stack, wait_for
from tests.workers.sleepy import NAP

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import private_services  # noqa: E402

pytestmark = [
    pytest.mark.real_worker,
    pytest.mark.django_db(transaction=True),
    full_stack,
    pytest.mark.skipif(
        private_services.available() is not None, reason=str(private_services.available())
    ),
]

RESTARTS = 3
NAP_SECONDS = 5
PING = "config.ping"
# Work must resume within 10 s of Redis coming back (the consumer's first retry is after 2 s).
RECOVERY_TARGET_SECONDS = 10


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[private_services.PrivateRedis]:
    server = private_services.PrivateRedis(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def send(redis_url: str, task: str, args: list[Any], queue: str) -> str:
    """Send ``task`` to ``queue`` on the Redis at ``redis_url``; its id."""
    with celery_app.connection_for_write(url=redis_url) as connection:
        return str(celery_app.send_task(task, args, queue=queue, connection=connection).id)


def lost_connections(worker: Worker) -> int:
    return worker.output().count("Connection to broker lost")


def restart_and_time(worker: Worker, redis: private_services.PrivateRedis, queue: str) -> float:
    """Restart Redis under a busy worker; seconds from Redis back to a new task done."""
    napping = send(redis.url, NAP, [NAP_SECONDS], queue)
    wait_for(lambda: napping in worker.received(NAP), seconds=15, what="the long task to start")
    lost = lost_connections(worker)
    redis.stop()
    wait_for(lambda: lost_connections(worker) > lost, seconds=10, what="the worker to see the loss")
    redis.start()
    back = time.monotonic()
    ping = send(redis.url, PING, [], queue)

    def done_or_dead() -> bool:
        return worker.process.poll() is not None or ping in worker.succeeded(PING)

    wait_for(done_or_dead, seconds=30, what="the task sent after the restart")
    recovery = time.monotonic() - back
    assert worker.process.poll() is None, f"the worker exited:\n{worker.output()}"
    return recovery


def test_a_worker_outlives_redis_restarts_and_runs_the_next_task(
    redis: private_services.PrivateRedis, workers: Workers
) -> None:
    worker = workers.start(
        include=("tests.workers.sleepy",),
        env={"REDIS_URL": redis.url},
        pool=("-P", "prefork", "-c", "2"),
    )
    recoveries = [restart_and_time(worker, redis, workers.queue) for _ in range(RESTARTS)]
    print("recovery after each Redis restart (s):", [round(r, 2) for r in recoveries])
    assert "Unrecoverable error" not in worker.output()
    assert statistics.median(recoveries) <= RECOVERY_TARGET_SECONDS, recoveries
