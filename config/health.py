"""``GET /api/v1/health/``: which database, channel layer and broker the server uses, whether
each one answers, and whether any match failed to be played (``tasks``: such a match waits for an
operator, ``manage.py retry_failed_matches``). 200 when all is well, 503 otherwise.

The page is public, so a failure shows only that the part does not answer; the exception (which
may name hosts, ports or credentials) goes to the server log."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.params import KnownQueryParameters

TIMEOUT_SECONDS = 3.0
NO_ANSWER = "Does not answer (the server log has the error)."

log = logging.getLogger(__name__)


def check_database() -> dict[str, Any]:
    def probe() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()

    return _report(connection.vendor, probe)


def check_channel_layer() -> dict[str, Any]:
    layer = get_channel_layer()
    if layer is None:
        log.error("Health: no channel layer is configured.")
        return {"backend": None, "ok": False, "error": NO_ANSWER}
    backend = f"{type(layer).__module__}.{type(layer).__qualname__}"
    return _report(backend, lambda: async_to_sync(_round_trip)(layer))


async def _round_trip(layer: BaseChannelLayer) -> None:
    """Send a message to a fresh channel and read it back."""
    channel = await layer.new_channel("health.")
    nonce = secrets.token_hex(8)
    await layer.send(channel, {"type": "health.ping", "nonce": nonce})
    message = await asyncio.wait_for(layer.receive(channel), timeout=TIMEOUT_SECONDS)
    if message.get("nonce") != nonce:
        raise RuntimeError("The channel layer returned another message.")


def check_broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"backend": "in-process", "ok": True, "error": None}
    return _report("redis", _ping_redis)


def _ping_redis() -> None:
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    finally:
        client.close()


def check_tasks() -> dict[str, Any]:
    """Failed matches: each one stops its tournament until an operator plays it again."""
    from matches.models import Match, MatchStatus

    failed = Match.objects.filter(status=MatchStatus.FAILED).count()
    error = (
        None if not failed else f"{failed} match(es) failed; see manage.py retry_failed_matches."
    )
    return {"backend": "matches", "ok": not failed, "error": error, "failed": failed}


def _report(backend: str, probe: Callable[[], None]) -> dict[str, Any]:
    try:
        probe()
    except Exception:  # any failure means "does not answer"; the log says why
        log.exception("Health: %s does not answer", backend)
        return {"backend": backend, "ok": False, "error": NO_ANSWER}
    return {"backend": backend, "ok": True, "error": None}


class ComponentSerializer(serializers.Serializer[Any]):
    backend = serializers.CharField(allow_null=True)
    ok = serializers.BooleanField()
    error = serializers.CharField(allow_null=True)


class TasksSerializer(ComponentSerializer):
    failed = serializers.IntegerField(help_text="Matches marked failed, waiting for an operator.")


class HealthSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["ok", "failing"])
    database = ComponentSerializer()
    channel_layer = ComponentSerializer()
    broker = ComponentSerializer()
    tasks = TasksSerializer()


class HealthView(KnownQueryParameters, APIView):
    authentication_classes = ()
    permission_classes = ()

    @extend_schema(responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        parts = {
            "database": check_database(),
            "channel_layer": check_channel_layer(),
            "broker": check_broker(),
            "tasks": check_tasks(),
        }
        healthy = all(part["ok"] for part in parts.values())
        body = {"status": "ok" if healthy else "failing", **parts}
        code = status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(body, status=code)
