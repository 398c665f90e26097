"""Every line the compose services write is a JSON object with a UTC time, and the ``jq`` recipes
of docs/operations.md ("Logs") find what they promise in that output.

Every app service starts as its container would (``tests/ops/compose_standin.py``: command,
user, environment, volumes read from ``docker-compose.yml`` and the Dockerfile): the one-shot
``init`` (migrate, load_catalogue, ensure_admin), http, ws, worker, beat and ``backup`` (its
first dump); a tournament is played through gunicorn (REST), Daphne (a stream and its refusal)
and the workers, with a request id of the test's own; one more worker and beat are stopped by
SIGINT (a terminal's Ctrl+C); then every service is stopped (SIGTERM, as ``docker compose
stop``), so the shutdown lines are read too.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.ops.compose_standin import (
    ROOT,
    Container,
    StandIn,
    standing_in,
    unavailable,
    wait_until,
)
from tests.ops.helpers import own_redis_db

sys.path.insert(0, str(ROOT / "scripts"))

from drill_clients import Api

SECONDS = 240
# Started once more and stopped by SIGINT, once this line of theirs says they are up.
INTERRUPTED = {"worker": " ready.", "beat": "beat: Starting"}
REQUEST_ID = "log-lines-" + secrets.token_hex(4)
UTC_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|\+00:00)$")
DOCS = ROOT / "docs" / "operations.md"


def _why_not() -> str | None:
    return unavailable("jq", "runs the documented jq recipes")


pytestmark = [
    pytest.mark.long,
    pytest.mark.real_worker,
    pytest.mark.timeout(1200),
    pytest.mark.skipif(_why_not() is not None, reason=str(_why_not())),
]


def _recreate(url: str, *, drop_only: bool = False) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{parts.path.lstrip("/")}"')


@pytest.fixture(scope="module")
def played() -> Iterator[tuple[dict[str, str], int]]:
    """Each container's whole output once the stack has played a tournament and stopped, and
    the tournament's id."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database = urlunsplit(url._replace(path=f"{url.path}_loglines"))
    _recreate(database)
    root = Path(tempfile.mkdtemp(prefix="log-lines-"))
    root.chmod(0o755)  # the services run as the image's user, below this folder
    operator = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "ADMIN_PASSWORD": secrets.token_urlsafe(16),
        "MATCH_EVENT_PACE_MS": "0",
    }
    urls = {"postgres": database, "redis": own_redis_db(os.environ["REDIS_URL"], 12)}
    try:
        with standing_in(root, urls, operator) as stack:
            stack.up(seconds=SECONDS)
            for name, container in stack.containers.items():
                if container.healthcheck is not None:  # backup's: its first dump written
                    stack.wait_healthy(name, seconds=SECONDS)
            tournament = _play(stack)
            for name, line in INTERRUPTED.items():
                _interrupt(stack.start_another(name, f"{name}-sigint"), line)
            stack.down()
            yield {name: one.output() for name, one in stack.containers.items()}, tournament
    finally:
        _recreate(database, drop_only=True)


def _play(stack: StandIn) -> int:
    """A bot tournament started over REST with the test's request id, followed to its end; a
    stream refused by Daphne (no such tournament) and one read through it."""
    made = stack.run("http", "python", "manage.py", "create_organizer", "log-lines")
    assert made.returncode == 0, made.stderr
    http, ws = int(stack.ports["8000"]), int(stack.ports["8001"])
    api = Api([http], made.stdout.strip())
    tournament = int(api.post("tournaments/", {"seats": 2})["id"])
    api.post(f"tournaments/{tournament}/bots/", {"count": 2})
    start = urllib.request.Request(
        f"http://127.0.0.1:{http}/api/v1/tournaments/{tournament}/start/",
        data=b"{}",
        method="POST",
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Token {api.token}",
            "X-Request-ID": REQUEST_ID,
        },
    )
    with urllib.request.urlopen(start, timeout=60) as answer:
        assert answer.status == 200
    finished = Api([ws], api.token)
    wait_until(
        lambda: finished.status(f"tournaments/{tournament}/")[1].get("status") == "finished",
        seconds=SECONDS,
        what="the tournament finished",
    )
    _stream(ws, tournament)
    _stream(ws, 10**9)
    return tournament


def _stream(port: int, tournament: int) -> None:
    """Open a spectator stream, read its first frame, close it (Daphne logs each step)."""
    from websockets.sync.client import connect
    from websockets.typing import Origin

    url = f"ws://127.0.0.1:{port}/ws/tournaments/{tournament}/"
    # A page of the server's own host: let in with or without the rule for Origin-less clients.
    origin = Origin(f"http://127.0.0.1:{port}")
    with connect(url, origin=origin, open_timeout=60) as ws:
        ws.recv(timeout=60)


def _interrupt(container: Container, started: str) -> None:
    """SIGINT to ``container`` once its output has the line ``started``."""
    wait_until(lambda: started in container.output(), seconds=SECONDS, what=container.name)
    container.stop(signal.SIGINT)


def _lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]


def test_every_line_of_every_service_is_json_with_a_utc_time(
    played: tuple[dict[str, str], int],
) -> None:
    outputs, _ = played
    assert {"init", "backup", "worker-sigint", "beat-sigint"} <= set(outputs), set(outputs)
    for name, output in outputs.items():
        assert _lines(output), f"{name} wrote nothing"
    wrong = [f"{name}: {line}" for name, output in outputs.items() for line in _lines(output)]
    wrong = [line for line in wrong if not _json_with_utc_time(line.split(": ", 1)[1])]
    assert not wrong, "\n".join(wrong[:20])


def _json_with_utc_time(line: str) -> bool:
    try:
        record = json.loads(line)
    except ValueError:
        return False
    if not isinstance(record, dict) or not UTC_TIME.match(str(record.get("time"))):
        return False
    moment = datetime.fromisoformat(record["time"].replace("Z", "+00:00"))
    return moment.utcoffset() == timedelta(0)


def test_the_access_lines_of_gunicorn_and_daphne_are_among_them(
    played: tuple[dict[str, str], int],
) -> None:
    outputs, _ = played
    assert '"logger": "gunicorn.access"' in outputs["http"]
    assert "starting: prefork pool" in outputs["worker"]
    assert "Warm shutdown" in outputs["worker"]


def test_the_init_and_backup_commands_and_a_sigint_are_among_them(
    played: tuple[dict[str, str], int],
) -> None:
    outputs, _ = played
    for command in ("migrate", "load_catalogue", "ensure_admin"):
        assert f'"logger": "challengers.commands.{command}"' in outputs["init"], command
    assert "Applying cards.0001_initial... OK" in outputs["init"]
    assert '"logger": "challengers.commands.backup"' in outputs["backup"]
    assert "Warm shutdown (SIGINT)" in outputs["worker-sigint"]


def recipes() -> list[str]:
    """The jq filters of the documented recipes (``… | jq -c '<filter>'``)."""
    found = re.findall(r"\| jq -c '([^']+)'", DOCS.read_text())
    assert len(found) >= 4, found
    return found


def test_each_documented_jq_recipe_finds_its_lines(
    played: tuple[dict[str, str], int], tmp_path: Path
) -> None:
    outputs, tournament = played
    logs = tmp_path / "compose.log"
    logs.write_text("".join(outputs.values()))
    since = min(json.loads(line)["time"] for output in outputs.values() for line in _lines(output))
    values = {
        "REQUEST_ID": REQUEST_ID,
        "TOURNAMENT_ID": str(tournament),
        "2026-12-06T18:00:00Z": since,
    }
    for recipe in recipes():
        jq_filter = recipe
        for placeholder, value in values.items():
            jq_filter = jq_filter.replace(placeholder, value)
        found = _jq(jq_filter, logs)
        assert found, f"no line for the recipe {recipe!r}"
        if "request_id" in recipe:
            loggers = {line["logger"] for line in found}
            assert any(name.startswith("celery") or "task" in name for name in loggers) or any(
                line.get("task_id") for line in found
            ), f"the request's lines on the workers: {loggers}"


def _jq(jq_filter: str, logs: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        ["jq", "-c", jq_filter, str(logs)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
