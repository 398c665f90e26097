"""GET /api/v1/health/ names the services in use and checks that each one answers."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings

from config.asgi import application
from config.health import NO_ANSWER

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
    logged = [repr(r.exc_info) for r in caplog.records if r.name == "config.health" and r.exc_info]
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
