"""The load balancer's probes: /api/v1/live/ touches nothing, /api/v1/ready/ is truthful from a
fresh server's first answer, and neither counts as a server error in /metrics."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from tests.live_server import free_port
from tests.ops.scrape import scrape, value

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"
DEAD_DATABASE = "postgres://postgres@127.0.0.1:1/nothing"
# Only when the server process dies before it answers does a wait give up; a loaded machine may
# take long to start Django, and the tests wait for the port to answer, not for a time.
GIVE_UP_SECONDS = 600


@pytest.mark.django_db
def test_live_answers_without_reading_the_database(client: Client) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/v1/live/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert len(queries) == 0


@pytest.mark.django_db
def test_ready_names_the_parts_a_request_needs(client: Client) -> None:
    response = client.get("/api/v1/ready/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert list(body) == ["status", "database", "channel_layer", "broker"]
    assert body["status"] == "ok"
    assert body["database"] == {"backend": connection.vendor, "ok": True, "error": None}


@pytest.mark.django_db
def test_ready_is_503_when_the_broker_does_not_answer(client: Client) -> None:
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=UNREACHABLE_REDIS):
        response = client.get("/api/v1/ready/")
    assert response.status_code == 503
    assert response.json()["status"] == "failing"
    assert response.json()["broker"]["ok"] is False


@pytest.mark.django_db
def test_a_probes_503_is_counted_as_a_probe_not_a_server_error(client: Client) -> None:
    requests = "challengers_http_requests_total"
    route = {"route": "api/v1/ready/", "operation": "", "method": "GET", "status": "503"}
    before, _ = scrape()
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=UNREACHABLE_REDIS):
        assert client.get("/api/v1/ready/").status_code == 503
    after, _ = scrape()
    probes = [value(samples, requests, api="probe", **route) for samples in (before, after)]
    assert probes[1] == probes[0] + 1
    assert value(after, requests, api="rest", **route) == 0


def _environment(**overrides: str) -> dict[str, str]:
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("DJANGO_SETTINGS")
    }
    environment.update(PYTHONUNBUFFERED="1", **overrides)
    return environment


@contextmanager
def daphne(environment: dict[str, str], folder: Path) -> Iterator[str]:
    """Daphne on ``server.serve`` (the servers' entry point) in a process of its own; yield its
    base URL once the port accepts connections (nothing asked of it before: no request warms it)."""
    port = free_port()
    log = (folder / "daphne.log").open("wb")
    server = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "server.serve:application"],
        cwd=ROOT,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for_port(port, server, folder / "daphne.log")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait()
        log.close()


def _wait_for_port(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    started = time.monotonic()
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if server.poll() is not None or time.monotonic() - started > GIVE_UP_SECONDS:
            raise AssertionError(log.read_text())
        time.sleep(0.05)


def _get(url: str) -> tuple[int, dict[str, Any], float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as refused:
        status, body = refused.code, refused.read()
    seconds = time.monotonic() - started
    return status, (json.loads(body) if body.startswith(b"{") else {}), seconds


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL"), reason="the connection pool is PostgreSQL's (DATABASE_URL)"
)
@pytest.mark.django_db(transaction=True)
def test_a_fresh_server_on_postgresql_is_ready_at_its_first_probe(tmp_path: Path) -> None:
    """Nothing but probes reach the server: its very first /ready/ and /health/ find the database
    answering (the pool is open at start, and a probe opens it too)."""
    name = settings.DATABASES["default"]["NAME"]
    database_url = f"postgres://postgres@127.0.0.1:5432/{name}"
    with daphne(_environment(DATABASE_URL=database_url), tmp_path) as url:
        status, body, _ = _get(f"{url}/api/v1/ready/")
        _, health, _ = _get(f"{url}/api/v1/health/")
    assert status == 200, body
    assert body["database"] == {"backend": "postgresql", "ok": True, "error": None}
    assert health["database"]["ok"] is True, health


def test_with_postgresql_down_live_answers_and_metrics_and_ready_answer_at_once(
    tmp_path: Path,
) -> None:
    """PostgreSQL down (a port nobody listens on): live is 200, ready 503 within its one short
    wait, /metrics (from loopback) in under a second, its database families left out."""
    environment = _environment(DATABASE_URL=DEAD_DATABASE, DEBUG="true")
    environment.pop("REDIS_URL", None)
    with daphne(environment, tmp_path) as url:
        live = _get(f"{url}/api/v1/live/")
        ready = _get(f"{url}/api/v1/ready/")
        _get(f"{url}/metrics")  # the first scrape imports the collectors
        metrics = [_get(f"{url}/metrics")[2] for _ in range(3)]
    assert live[0] == 200 and live[1] == {"status": "ok"}
    assert ready[0] == 503 and ready[1]["database"]["ok"] is False
    assert ready[2] < 5, "one probe's wait, not the pool's"
    assert sorted(metrics)[1] < 1.0, metrics
