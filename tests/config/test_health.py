"""GET /api/v1/health/ names the services in use and checks that each one answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.utils import timezone

from infra.liveness import BEAT, WORKER, heartbeat_write
from infra.models import Heartbeat
from server.asgi import application
from server.celery import app as celery_app
from server.health import DATABASE_DOWN, NO_ANSWER, TIMEOUT_SECONDS

ROOT = Path(__file__).resolve().parents[2]

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def _health(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get("/api/v1/health/")
    return response.status_code, response.json()


@pytest.mark.django_db
def test_it_reports_the_configured_services_as_answering(client: Client) -> None:
    status, body = _health(client)
    assert status == 200
    assert body["status"] == "ok"
    assert body["database"] == {"backend": connection.vendor, "ok": True, "error": None}
    layer_backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    assert body["channel_layer"] == {"backend": layer_backend, "ok": True, "error": None}
    broker = "in-process" if settings.CELERY_TASK_ALWAYS_EAGER else "redis"
    assert body["broker"] == {"backend": broker, "ok": True, "error": None}


@pytest.mark.django_db
def test_it_answers_503_when_the_broker_does_not_answer(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=UNREACHABLE_REDIS):
        status, body = _health(client)
    assert status == 503
    assert body["status"] == "failing"
    assert body["broker"]["backend"] == "redis"
    assert body["broker"]["ok"] is False
    assert body["database"]["ok"] is True
    # The public page says only that it does not answer; the exception is in the log.
    assert body["broker"]["error"] == NO_ANSWER
    assert "127.0.0.1:1" not in str(body) and "Error" not in str(body)
    # The traceback is logged as text (infra.logfilters.RedactTokens masks tokens in it).
    ours = [r for r in caplog.records if r.name == "server.health"]
    logged = [r.exc_text or repr(r.exc_info) for r in ours if r.exc_text or r.exc_info]
    assert logged and "Connection" in logged[0]


@pytest.mark.django_db
def test_it_answers_503_when_the_channel_layer_does_not_answer(client: Client) -> None:
    host = {"address": UNREACHABLE_REDIS, "socket_timeout": None}
    layers = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [host]}}
    }
    with override_settings(CHANNEL_LAYERS=layers):
        status, body = _health(client)
    assert status == 503
    assert body["channel_layer"]["backend"] == "channels_redis.core.RedisChannelLayer"
    assert body["channel_layer"]["ok"] is False
    assert body["channel_layer"]["error"] == NO_ANSWER


@pytest.mark.django_db(transaction=True)
async def test_daphne_asgi_application_serves_http() -> None:
    communicator = HttpCommunicator(application, "GET", "/api/v1/health/")
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 200
    assert b'"status":"ok"' in response["body"]


DEAD_DATABASE = "postgres://postgres@127.0.0.1:1/nothing"
PROBE = """
import json, time, django
django.setup()
from django.test import Client
from django.urls import resolve
client = Client()
client.handler.load_middleware()  # the middleware's and the URLconf's imports, before the clock
resolve("/api/v1/health/")
started = time.monotonic()
response = client.get("/api/v1/health/")
print(json.dumps({"status": response.status_code, "body": response.json(),
                  "seconds": time.monotonic() - started}))
"""


def test_it_answers_503_quickly_when_the_database_does_not_answer() -> None:
    """A server whose PostgreSQL is down (a port nobody listens on), in a process of its own."""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": DEAD_DATABASE,
        "DEBUG": "true",
    }
    environment.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=environment,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["status"] == 503
    body = answer["body"]
    assert body["database"] == {"backend": "postgresql", "ok": False, "error": NO_ANSWER}
    for part in ("workers", "beat", "tournaments", "tasks"):
        assert body[part]["ok"] is False
        assert body[part]["error"] == DATABASE_DOWN
    assert body["channel_layer"]["ok"] and body["broker"]["ok"]
    assert answer["seconds"] < TIMEOUT_SECONDS + 2, "one wait for the database, not one per check"
    assert "127.0.0.1:1" not in json.dumps(body)


@pytest.fixture
def celery_stack() -> Iterator[None]:
    """Tasks go to workers, not the calling process (the health check reads this)."""
    conf: Any = celery_app.conf
    saved = conf.task_always_eager
    conf.task_always_eager = False
    try:
        yield
    finally:
        conf.task_always_eager = saved


@pytest.mark.django_db
def test_on_the_celery_stack_no_live_worker_is_503_and_a_fresh_heartbeat_is_200(
    client: Client, celery_stack: None, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the broker check: in-process, so only workers fail
    status, body = _health(client)
    assert status == 503
    assert body["workers"] == {
        "backend": "celery",
        "ok": False,
        "error": "No worker has been seen alive.",
        "alive": 0,
        "seen": [],
    }
    heartbeat_write(name="celery@old", role=WORKER)
    Heartbeat.objects.filter(name="celery@old").update(
        seen_at=timezone.now() - timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS + 1)
    )
    status, body = _health(client)
    assert status == 503 and body["workers"]["seen"][0]["alive"] is False
    heartbeat_write(name="celery@new", role=WORKER)
    status, body = _health(client)
    assert status == 200, body
    assert body["workers"]["alive"] == 1
    assert [w["name"] for w in body["workers"]["seen"]] == ["celery@new", "celery@old"]


@pytest.mark.django_db
def test_beat_fails_the_check_only_when_required(
    client: Client, celery_stack: None, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    heartbeat_write(name="celery@one", role=WORKER)
    assert _health(client)[1]["beat"]["ok"] is True
    settings.BEAT_REQUIRED = True
    status, body = _health(client)
    assert status == 503
    assert body["beat"]["error"] == "Celery beat has not been seen alive."
    heartbeat_write(name=BEAT, role=BEAT)
    status, body = _health(client)
    assert status == 200 and body["beat"]["alive"] is True


@pytest.mark.django_db(transaction=True)
def test_tournaments_owed_work_past_the_bound_are_counted_stuck(
    client: Client, catalogue: Any
) -> None:
    from tournaments.models import Tournament
    from tournaments.services import lobby, start

    ticket = lobby.tournament_create(host_name="Host", seat_count=2, seed=3)
    lobby.seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=1)
    start.tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    assert _health(client)[1]["tournaments"]["stuck"] == 0
    Tournament.objects.update(phase_deadline=timezone.now() - timedelta(minutes=5))
    status, body = _health(client)
    assert status == 503
    tournaments = body["tournaments"]
    assert tournaments["stuck"] == 1 and tournaments["oldest_stuck_seconds"] >= 300
    assert tournaments["error"] == "1 tournament stuck; see the reconciler's log."
    answer = client.get(
        "/api/v1/health/", HTTP_ACCEPT_LANGUAGE="ru"
    )  # the reason in the asker's words
    assert answer.json()["tournaments"]["error"] == "1 турнир застрял; смотрите журнал сверщика."
    answer = client.get("/api/v1/health/?lang=zh-hans")
    assert answer.json()["tournaments"]["error"] == "1 个锦标赛卡住了；请查看协调器的日志。"  # noqa: RUF001


@pytest.mark.django_db(transaction=True)
async def test_an_idle_stream_socket_does_not_make_the_channel_layer_look_dead(
    catalogue: Any,
) -> None:
    from channels.db import database_sync_to_async

    from tournaments.services import lobby

    ticket = await database_sync_to_async(lobby.tournament_create)(
        host_name="Host", seat_count=2, seed=3
    )
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{ticket.tournament.pk}/")
    connected, _ = await socket.connect()
    assert connected
    try:
        communicator = HttpCommunicator(application, "GET", "/api/v1/health/")
        response = await communicator.get_response(timeout=10)
        body = json.loads(response["body"])
        assert body["channel_layer"]["ok"] is True, body
    finally:
        await socket.disconnect()
