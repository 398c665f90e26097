"""``GET /api/v1/health/``: whether the server's parts answer and the game makes progress.

It answers 200 when all is well, 503 otherwise. Never 500: every probe's failure is caught. It is
reported as that part failing, the database's included.

- ``database``, ``channel_layer``, ``broker``: which one is used and whether it answers.
- ``workers``: the Celery workers' heartbeats (``infra.liveness``). It fails when none is alive.
- ``beat``: Celery beat's heartbeat. It fails only with ``BEAT_REQUIRED``: the workers' clocks
  reconcile without it.
- ``tournaments``: running tournaments owed work for longer than ``RECONCILE_STUCK_SECONDS``.
  (Derived as the reconciler derives it, ``tournaments.selectors.owed``.)
- ``tasks``: matches that failed to be played. Each waits for an operator
  (``manage.py retry_failed_matches``).

The page is public, so a failure shows only that the part does not answer. The exception may
name hosts, ports or credentials. It goes to the server log."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import redis
from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import DEFAULT_CHANNEL_LAYER, BaseChannelLayer, channel_layers
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.openapi import operation
from infra import liveness
from infra.dbpool import select_one
from infra.params import KnownQueryParameters
from infra.taskqueue import runner_alive

TIMEOUT_SECONDS = 3.0
# Written in the request's language where a report is made (?lang=, Accept-Language).
NO_ANSWER = gettext_noop("Does not answer (the server log has the error).")

log = logging.getLogger(__name__)

Probe = Callable[[], dict[str, object] | None]


def check_database() -> dict[str, object]:
    """``SELECT 1`` through the connection pool, opened first if need be.

    The probe has its own short wait. The pool's own wait, for requests, is longer than a health
    check may take."""
    return _report(connection.vendor, lambda: select_one(TIMEOUT_SECONDS))


def check_channel_layer() -> dict[str, object]:
    """A round trip through a layer instance of the probe's own.

    The server's shared instance serialises its receives behind one lock. An idle socket's
    pending receive would hold the probe up, and a healthy layer would look dead."""
    if DEFAULT_CHANNEL_LAYER not in channel_layers.configs:
        log.error("Health: no channel layer is configured.")
        return {"backend": None, "ok": False, "error": gettext(NO_ANSWER)}
    backend = str(channel_layers.configs[DEFAULT_CHANNEL_LAYER]["BACKEND"])

    def probe() -> None:
        layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        async_to_sync(_round_trip)(layer)

    return _report(backend, probe)


async def _round_trip(layer: BaseChannelLayer) -> None:
    """Send a message to a fresh channel and read it back.

    The layer's connections are closed after."""
    try:
        channel = await layer.new_channel("health.")
        nonce = secrets.token_hex(8)
        await layer.send(channel, {"type": "health.ping", "nonce": nonce})
        message = await asyncio.wait_for(layer.receive(channel), timeout=TIMEOUT_SECONDS)
        if message.get("nonce") != nonce:
            raise RuntimeError("The channel layer returned another message.")
    finally:
        close = getattr(layer, "close_pools", None)
        if close is not None:
            await close()


def check_broker() -> dict[str, object]:
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


def _runner() -> str:
    """Who runs the tasks.

    ``celery``: workers. ``thread``: the embedded server's thread. ``in-process``: the calling
    process itself, Celery eager, as in the tests."""
    if settings.TASK_RUNNER == "thread":
        return "thread"
    return "in-process" if current_app.conf.task_always_eager else "celery"


def check_workers() -> dict[str, object]:
    """Each worker seen by heartbeat.

    On the Celery stack, failing when none is alive. On the embedded server, failing when its
    task thread has stopped."""
    runner = _runner()

    def probe() -> dict[str, object]:
        now = timezone.now()
        seen = [_seen(name, at, now) for name, at in liveness.heartbeats(role=liveness.WORKER)]
        alive = sum(1 for worker in seen if worker["alive"])
        if runner == "thread":
            thread = runner_alive()
            if thread is False:
                raise _Failing(
                    gettext("The embedded task thread has stopped."), {"alive": 0, "seen": []}
                )
            return {"alive": int(bool(thread)), "seen": []}
        if runner == "celery" and not alive:
            raise _Failing(gettext("No worker has been seen alive."), {"alive": 0, "seen": seen})
        return {"alive": alive, "seen": seen}

    return _report(runner, probe, {"alive": 0, "seen": []})


def check_beat() -> dict[str, object]:
    """Celery beat's heartbeat, written by the reconcile tasks it sends."""
    runner = _runner()
    required = bool(settings.BEAT_REQUIRED) and runner == "celery"

    def probe() -> dict[str, object]:
        beats = liveness.heartbeats(role=liveness.BEAT)
        seen = _seen(*beats[0], timezone.now()) if beats else None
        found: dict[str, object] = {"expected": required, "alive": bool(seen and seen["alive"])}
        found["seen_seconds_ago"] = seen["seen_seconds_ago"] if seen else None
        if required and not found["alive"]:
            raise _Failing(gettext("Celery beat has not been seen alive."), found)
        return found

    fallback = {"expected": required, "alive": False, "seen_seconds_ago": None}
    return _report(runner, probe, fallback)


def _seen(name: str, at: datetime, now: datetime) -> dict[str, object]:
    ago = round((now - at).total_seconds(), 1)
    return {"name": name, "seen_seconds_ago": ago, "alive": liveness.is_alive(at, now)}


def check_tournaments() -> dict[str, object]:
    """Running tournaments owed work for longer than ``RECONCILE_STUCK_SECONDS``."""
    from tournaments.selectors.owed import stuck_tournaments

    def probe() -> dict[str, object]:
        now = timezone.now()
        stuck = stuck_tournaments(now=now, seconds=settings.RECONCILE_STUCK_SECONDS)
        oldest = round((now - min(stuck.values())).total_seconds(), 1) if stuck else None
        found: dict[str, object] = {"stuck": len(stuck), "oldest_stuck_seconds": oldest}
        if stuck:
            message = ngettext(
                "%(count)s tournament stuck; see the reconciler's log.",
                "%(count)s tournaments stuck; see the reconciler's log.",
                len(stuck),
            )
            raise _Failing(message % {"count": len(stuck)}, found)
        return found

    return _report("reconciler", probe, {"stuck": None, "oldest_stuck_seconds": None})


def check_tasks() -> dict[str, object]:
    """Failed matches.

    Each stops its tournament until an operator replays it."""
    from matches.models import Match, MatchStatus

    def probe() -> dict[str, object]:
        failed = Match.objects.filter(status=MatchStatus.FAILED).count()
        if failed:
            message = ngettext(
                "%(count)s match failed; see manage.py retry_failed_matches.",
                "%(count)s matches failed; see manage.py retry_failed_matches.",
                failed,
            )
            raise _Failing(message % {"count": failed}, {"failed": failed})
        return {"failed": 0}

    return _report("matches", probe, {"failed": None})


class _Failing(Exception):
    """A probe that got a bad answer.

    ``message`` is safe to show."""

    def __init__(self, message: str, fields: Mapping[str, object]) -> None:
        super().__init__(message)
        self.message, self.fields = message, fields


def _report(
    backend: str, probe: Probe, fallback: Mapping[str, object] | None = None
) -> dict[str, object]:
    """Run ``probe``: its fields when it answers.

    Otherwise ``fallback``'s and ``NO_ANSWER``."""
    try:
        fields = probe() or {}
    except _Failing as failing:
        return {"backend": backend, "ok": False, "error": failing.message, **failing.fields}
    except Exception:  # any failure means "does not answer"; the log says why
        log.exception("Health: %s does not answer", backend)
        return {"backend": backend, "ok": False, "error": gettext(NO_ANSWER), **(fallback or {})}
    return {"backend": backend, "ok": True, "error": None, **fields}


class ComponentSerializer(serializers.Serializer[Any]):
    backend = serializers.CharField(
        allow_null=True, help_text="Which implementation this part uses."
    )
    ok = serializers.BooleanField(help_text="Whether this part answers and is well.")
    error = serializers.CharField(
        allow_null=True, help_text="Why not, when not ok (never a host, port or credential)."
    )


class WorkerSeenSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The worker's Celery hostname.")
    seen_seconds_ago = serializers.FloatField(help_text="Seconds since its last heartbeat.")
    alive = serializers.BooleanField(
        help_text="Its last heartbeat is at most HEARTBEAT_STALE_SECONDS old."
    )


class WorkersSerializer(ComponentSerializer):
    alive = serializers.IntegerField(
        help_text="Workers alive; on the Celery stack, none alive fails the check."
    )
    seen = WorkerSeenSerializer(
        many=True, help_text="Every worker seen in the last day, freshest first."
    )


class BeatSerializer(ComponentSerializer):
    expected = serializers.BooleanField(
        help_text="BEAT_REQUIRED on the Celery stack: a silent beat fails the check."
    )
    alive = serializers.BooleanField(help_text="Beat's last heartbeat is recent enough.")
    seen_seconds_ago = serializers.FloatField(
        allow_null=True, help_text="Seconds since beat's last heartbeat; null if never seen."
    )


class TournamentsSerializer(ComponentSerializer):
    stuck = serializers.IntegerField(
        allow_null=True,
        help_text="Running tournaments owed work for over RECONCILE_STUCK_SECONDS.",
    )
    oldest_stuck_seconds = serializers.FloatField(
        allow_null=True, help_text="How long the longest-stuck one has been owed work."
    )


class TasksSerializer(ComponentSerializer):
    failed = serializers.IntegerField(
        allow_null=True, help_text="Matches marked failed, waiting for an operator."
    )


PROBE_STATUSES = ["ok", "failing"]
"""What health and readiness say in all (``ProbeStatusEnum`` in the OpenAPI schema)."""


class HealthSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=PROBE_STATUSES)
    database = ComponentSerializer()
    channel_layer = ComponentSerializer()
    broker = ComponentSerializer()
    workers = WorkersSerializer()
    beat = BeatSerializer()
    tournaments = TournamentsSerializer()
    tasks = TasksSerializer()


INDEPENDENT: dict[str, Callable[[], dict[str, object]]] = {
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}
"""The checks that do not read the database."""

FROM_DATABASE: dict[str, tuple[str, Callable[[], dict[str, object]], dict[str, object]]] = {
    "workers": ("", check_workers, {"alive": 0, "seen": []}),
    "beat": ("", check_beat, {"expected": False, "alive": False, "seen_seconds_ago": None}),
    "tournaments": ("reconciler", check_tournaments, {"stuck": None, "oldest_stuck_seconds": None}),
    "tasks": ("matches", check_tasks, {"failed": None}),
}
"""The checks that read the database: with the database down, each is reported failing at once
(waiting for a connection once per check would keep the probe waiting many times over)."""

DATABASE_DOWN = gettext_noop("Unknown: the database does not answer.")


def check_all() -> dict[str, dict[str, object]]:
    parts = {"database": check_database()}
    parts.update((name, check()) for name, check in INDEPENDENT.items())
    for name, (backend, check, fallback) in FROM_DATABASE.items():
        if parts["database"]["ok"]:
            parts[name] = check()
        else:
            down = {"backend": backend or _runner(), "ok": False, "error": gettext(DATABASE_DOWN)}
            parts[name] = {**down, **fallback}
    return parts


class HealthView(KnownQueryParameters, APIView):
    authentication_classes = ()
    permission_classes = ()
    throttle_classes = ()

    @operation("Server health", "Each backend's state: `200` when all work, `503` otherwise.")
    @extend_schema(responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        parts = check_all()
        healthy = all(part["ok"] for part in parts.values())
        body = {"status": "ok" if healthy else "failing", **parts}
        code = status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(body, status=code)
