"""The Celery app: tasks run in-process in tests, and through Redis when REDIS_URL is set."""

from __future__ import annotations

import secrets

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from config.celery import app as celery_app


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
