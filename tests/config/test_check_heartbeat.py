"""``manage.py check_heartbeat``: the compose health check of beat (and of a worker) passes on
a fresh heartbeat and fails on a stale or missing one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from infra.liveness import BEAT, WORKER, heartbeat_write
from infra.models import Heartbeat

pytestmark = pytest.mark.django_db


def test_a_fresh_beat_heartbeat_passes(capsys: pytest.CaptureFixture[str]) -> None:
    heartbeat_write(name=BEAT, role=BEAT)
    call_command("check_heartbeat", "beat")
    assert "beat seen" in capsys.readouterr().out


def test_no_heartbeat_fails() -> None:
    with pytest.raises(CommandError, match="No heartbeat of beat"):
        call_command("check_heartbeat", "beat")


def test_a_stale_heartbeat_fails(settings: Any) -> None:
    heartbeat_write(name=BEAT, role=BEAT)
    old = timezone.now() - timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS + 5)
    Heartbeat.objects.filter(name=BEAT).update(seen_at=old)
    with pytest.raises(CommandError, match="s old"):
        call_command("check_heartbeat", "beat")


def test_a_worker_is_checked_by_its_own_name() -> None:
    heartbeat_write(name="celery@a", role=WORKER)
    call_command("check_heartbeat", "worker", "--name", "celery@a")
    with pytest.raises(CommandError, match="celery@b"):
        call_command("check_heartbeat", "worker", "--name", "celery@b")


def test_a_worker_clock_tick_touches_the_heartbeat_file(settings: Any, tmp_path: Any) -> None:
    from infra.liveness import WorkerClock

    settings.HEARTBEAT_FILE = str(tmp_path / "heartbeat")
    WorkerClock("celery@a").tick()
    assert (tmp_path / "heartbeat").exists()


def test_beat_touches_the_heartbeat_file_after_each_task_it_sends(
    settings: Any, tmp_path: Any
) -> None:
    from celery import signals

    from server.celery import _touch_heartbeat_file, beat_heartbeat_file

    settings.HEARTBEAT_FILE = str(tmp_path / "heartbeat")
    beat_heartbeat_file()  # what beat_init calls in the beat process
    try:
        signals.after_task_publish.send(sender="config.ping", body=None, routing_key="")
        assert (tmp_path / "heartbeat").exists()
    finally:
        signals.after_task_publish.disconnect(_touch_heartbeat_file)
