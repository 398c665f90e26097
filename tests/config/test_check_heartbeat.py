"""``manage.py check_heartbeat``: the compose health check of beat (and of a worker) passes on
a fresh heartbeat and fails on a stale or missing one."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from config.liveness import BEAT, WORKER, heartbeat_write
from config.models import Heartbeat

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
