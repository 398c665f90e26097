"""A worker started on a database not migrated yet (beside compose's ``init``, or ``serve`` on a
fresh database) waits for the migrations, saying so in a JSON line, logs no traceback
meanwhile, and takes its tasks once ``migrate`` has run (``infra/migrated.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from server.celery import ping
from tests.workers.conftest import (
    PATIENCE,
    READY_SECONDS,
    ROOT,
    Workers,
    database_url_of_this_run,
    full_stack,
    wait_for,
)

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]


def _admin(url: str, statement: str) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(statement)


def _heartbeats(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM config_heartbeat").fetchone()
    return int(row[0]) if row else 0


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """An empty database beside the test run's own; its URL."""
    url = urlsplit(database_url_of_this_run())
    fresh = urlunsplit(url._replace(path=url.path + "_fresh"))
    name = urlsplit(fresh).path.lstrip("/")
    _admin(fresh, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    _admin(fresh, f'CREATE DATABASE "{name}"')
    try:
        yield fresh
    finally:
        _admin(fresh, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_worker_waits_for_the_migrations_then_takes_its_tasks(
    fresh_database: str, workers: Workers
) -> None:
    name = urlsplit(fresh_database).path.lstrip("/")
    waiting = f"Waiting for the migrations of database {name}: "
    env = {"DATABASE_URL": fresh_database, "LOG_FORMAT": "json"}
    # As compose runs it: a prefork pool of two, which forks after the wait.
    worker = workers.start(env=env, pool=("-P", "prefork", "-c", "2"), wait=False)
    started = lambda: waiting in worker.output() or " ready." in worker.output()  # noqa: E731
    wait_for(started, seconds=60, what="the worker to wait or start")
    assert waiting in worker.output() and " ready." not in worker.output(), worker.output()
    sent = ping.apply_async(queue=workers.queue)  # waits in the broker meanwhile

    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    env = {**os.environ, "DATABASE_URL": fresh_database}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run(migrate, cwd=ROOT, env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert sent.get(timeout=READY_SECONDS * PATIENCE) == "pong"
    wait_for(lambda: _heartbeats(fresh_database), seconds=30, what="the worker's clock")
    worker.stop()

    # The test workers are not --quiet: Celery's banner (text) follows the wait.
    lines = [json.loads(line) for line in worker.output().splitlines() if line.startswith("{")]
    assert "Traceback" not in worker.output() and all(line["level"] != "ERROR" for line in lines)
    said = [line for line in lines if line["logger"] == "infra.migrated"]
    assert said[0]["message"].startswith(waiting) and said[0]["level"] == "WARNING", said
    assert said[-1]["message"].startswith(f"Database {name} migrated: starting after "), said
    assert all(line["message"].startswith("Still waiting") for line in said[1:-1]), said
