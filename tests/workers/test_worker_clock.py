"""Each worker's clock reconciles without Celery beat, and /health/ tells which processes live.

The tasks of a started tournament are purged from the broker before any worker runs (as a Redis
restart drops its queues): only the reconciler, run by the worker's clock, can drive it on.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from server.celery import app as celery_app
from tests.tournaments.play import Player, open_game
from tests.workers.conftest import ROOT, Workers, database_url_of_this_run, full_stack, wait_for
from tournaments.models import Status, Tournament

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]

FAST_CLOCK = {"RECONCILE_INTERVAL_SECONDS": "1", "RECONCILE_REQUEUE_SECONDS": "1"}


def stuck_at_the_deck_phase(seats: int, seed: int, queue: str) -> Player:
    """A started tournament whose bots' Deck Phase task was lost; its host has finished.

    Its tasks go to a queue no worker reads, which is then dropped."""
    saved = celery_app.conf.task_default_queue
    nowhere = f"{queue}-lost"
    celery_app.conf.task_default_queue = nowhere
    try:
        (host,) = open_game(seats=seats, seed=seed)
        while host.act():
            pass
    finally:
        celery_app.conf.task_default_queue = saved
        with celery_app.connection_for_write() as conn:
            channel: Any = conn.default_channel
            channel.queue_purge(nowhere)
            channel.client.delete(nowhere, f"_kombu.binding.{nowhere}")
    return host


def health(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get("/api/v1/health/")
    return response.status_code, response.json()


@pytest.fixture
def beat(workers: Workers, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``celery beat`` sending the schedule to the test's queue; stopped by its PID."""
    command = [
        sys.executable, "-m", "celery", "-A", "tests.workers.app", "beat", "-l", "INFO",
        "-s", str(tmp_path / "beat-schedule"),
    ]  # fmt: skip
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url_of_this_run(),
        "REDIS_URL": str(os.environ.get("REDIS_URL")),
        "WORKER_TEST_QUEUE": workers.queue,
        **FAST_CLOCK,
    }
    with (tmp_path / "beat.log").open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_a_worker_without_beat_drives_a_tournament_whose_tasks_were_lost(
    workers: Workers, catalogue: Any, client: Client, settings: Any
) -> None:
    host = stuck_at_the_deck_phase(seats=3, seed=21, queue=workers.queue)
    worker = workers.start(env=FAST_CLOCK)

    def next_round() -> bool:
        found = Tournament.objects.get(pk=host.id)
        return found.round == 2 and found.status == Status.DECK

    wait_for(next_round, seconds=60, what="the reconciler to drive round 1 to its end")
    assert "Reconciler queued again: bots:" in worker.output()

    status, body = health(client)
    assert status == 200, body
    assert body["workers"]["backend"] == "celery" and body["workers"]["alive"] == 1
    [seen] = body["workers"]["seen"]
    assert seen["name"].startswith(workers.queue) and seen["alive"]
    assert body["beat"] == {
        "backend": "celery",
        "ok": True,
        "error": None,
        "expected": False,
        "alive": False,
        "seen_seconds_ago": None,
    }

    worker.kill()
    settings.HEARTBEAT_STALE_SECONDS = 2

    def reported_dead() -> dict[str, Any] | None:
        status, body = health(client)
        return body if status == 503 and body["workers"]["alive"] == 0 else None

    body = wait_for(reported_dead, seconds=30, what="/health/ to report no worker alive")
    assert body["workers"]["error"] == "No worker has been seen alive."
    assert body["workers"]["seen"][0]["alive"] is False


def test_with_beat_killed_the_workers_clock_goes_on_and_health_says_beat_is_dead(
    workers: Workers, catalogue: Any, client: Client, settings: Any, beat: Any
) -> None:
    workers.start(env=FAST_CLOCK)
    settings.BEAT_REQUIRED = True

    def beat_alive() -> bool:
        status, body = health(client)
        return status == 200 and body["beat"]["alive"]

    wait_for(beat_alive, seconds=60, what="beat's reconcile task to be run by the worker")

    os.kill(beat.pid, signal.SIGKILL)
    beat.wait(timeout=10)
    settings.HEARTBEAT_STALE_SECONDS = 2

    def beat_reported_dead() -> dict[str, Any] | None:
        status, body = health(client)
        return body if status == 503 and not body["beat"]["alive"] else None

    body = wait_for(beat_reported_dead, seconds=30, what="/health/ to report beat dead")
    assert body["beat"]["ok"] is False and body["beat"]["expected"] is True
    assert body["workers"]["ok"] is True, "the worker is alive: only beat failed"

    host = stuck_at_the_deck_phase(seats=2, seed=22, queue=workers.queue)
    Tournament.objects.filter(pk=host.id).update(updated_at=timezone.now() - timedelta(minutes=1))
    wait_for(
        lambda: Tournament.objects.get(pk=host.id).round == 2,
        seconds=60,
        what="the worker's clock to reconcile with beat dead",
    )
