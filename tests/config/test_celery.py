"""The Celery app: tasks run in-process in tests, and through Redis when REDIS_URL is set."""

from __future__ import annotations

import secrets
from types import SimpleNamespace
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from server.celery import WORKER_POOL_TIMEOUT_SECONDS, connections_back_to_pool, task_pool_wait
from server.celery import app as celery_app


@celery_app.task(name="tests.echo", ignore_result=False)  # the product reads no results
def echo(text: str) -> str:
    return text


def test_a_task_runs_in_process_during_tests() -> None:
    assert echo.delay("hello").get(timeout=1) == "hello"


@pytest.mark.real_worker
@pytest.mark.skipif(settings.REDIS_URL is None, reason="needs REDIS_URL (a real broker)")
def test_a_task_round_trips_through_the_redis_broker() -> None:
    assert celery_app.conf.task_always_eager is False
    queue = f"tests-{secrets.token_hex(4)}"  # a queue of its own: nothing else's tasks run here
    with start_worker(celery_app, perform_ping_check=False, queues=[queue]):
        result = echo.apply_async(("over redis",), queue=queue)
        assert result.get(timeout=10) == "over redis"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.DATABASES["default"].get("OPTIONS", {}).get("pool"), reason="pool")
def test_a_prefork_worker_keeps_its_database_connection_from_task_to_task() -> None:
    """Celery's Django fixup used to close the connection pool around every task of a prefork
    worker, so each task opened a new PostgreSQL connection; it now goes back to the pool."""
    from celery.fixups import django as celery_django
    from django.db import connection

    fixup = celery_django.DjangoWorkerFixup(celery_app)  # type: ignore[attr-defined]
    fixup.worker = SimpleNamespace(pool_cls="celery.concurrency.prefork:TaskPool")
    assert fixup._is_prefork()
    connection.ensure_connection()
    pool = connection.pool  # type: ignore[attr-defined]  # the PostgreSQL wrapper has one
    opened = pool.get_stats()["connections_num"]
    for _ in range(3):  # what a worker runs around each task
        for hook in (fixup.on_task_prerun, connections_back_to_pool):
            hook(sender=echo)
        assert connection.connection is None  # handed back, as after a request
        connection.ensure_connection()  # the task's first query
        for hook in (fixup.on_task_postrun, connections_back_to_pool):
            hook(sender=echo)
    # The same pool lent its connections again: none was opened for the tasks.
    assert connection.pool is pool  # type: ignore[attr-defined]
    assert pool.get_stats()["connections_num"] == opened


def test_tasks_wait_longer_for_a_database_connection_than_requests(settings: Any) -> None:
    """A task rides out a short PostgreSQL restart; a request answers 503 after 3 s."""
    database = {**settings.DATABASES["default"], "OPTIONS": {"pool": {"timeout": 3}}}
    settings.DATABASES = {**settings.DATABASES, "default": database}
    task_pool_wait()
    assert database["OPTIONS"]["pool"]["timeout"] == WORKER_POOL_TIMEOUT_SECONDS > 3
