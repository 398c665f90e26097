"""The probes a load balancer or an orchestrator asks.

They stand beside the full report of ``/api/v1/health/``:

- ``GET /api/v1/live/``: the process answers HTTP (a liveness probe). It touches no dependency.
  So a database or Redis outage never gets a healthy process restarted.
- ``GET /api/v1/ready/``: this process can serve a request now (a readiness probe). The
  database (through its pool, opened at start), the channel layer and the broker answer. Else it
  answers 503. Workers, beat and stuck tournaments are the game's health, not this process's.
  They stay in ``/api/v1/health/``. So a dead worker never takes the web servers out of a load
  balancer.

Their 503s are answers, not server errors. ``/metrics`` counts every probe under ``api="probe"``
(``server.metrics_http.PROBE_PATHS``). The 5xx alert leaves those out."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.params import KnownQueryParameters
from server.health import (
    PROBE_STATUSES,
    ComponentSerializer,
    check_broker,
    check_channel_layer,
    check_database,
)


class LiveSerializer(serializers.Serializer[Any]):
    status = serializers.CharField(help_text="Always `ok`: the process answers.")


class ReadySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=PROBE_STATUSES)
    database = ComponentSerializer()
    channel_layer = ComponentSerializer()
    broker = ComponentSerializer()


class _Probe(KnownQueryParameters, APIView):
    authentication_classes = ()
    permission_classes = ()
    throttle_classes = ()


class LiveView(_Probe):
    @extend_schema(responses={200: LiveSerializer})
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})


class ReadyView(_Probe):
    @extend_schema(responses={200: ReadySerializer, 503: ReadySerializer})
    def get(self, request: Request) -> Response:
        parts = {
            "database": check_database(),
            "channel_layer": check_channel_layer(),
            "broker": check_broker(),
        }
        ready = all(part["ok"] for part in parts.values())
        code = status.HTTP_200_OK if ready else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response({"status": "ok" if ready else "failing", **parts}, status=code)
