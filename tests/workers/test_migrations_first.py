"""A worker started on a database not migrated yet (beside compose's ``init`` or ``serve`` on a
fresh database) waits for the migrations, saying so once, and logs no traceback meanwhile."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.workers.conftest import ROOT, Workers, database_url_of_this_run, full_stack, wait_for

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]

WAITING = "Waiting for the database before starting"


def _admin(url: str, statement: str) -> None:
    import psycopg

    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(statement)


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


def test_a_worker_waits_for_the_migrations_without_a_traceback(
    fresh_database: str, workers: Workers
) -> None:
    worker = workers.start(env={"DATABASE_URL": fresh_database}, wait=False)
    wait_for(
        lambda: WAITING in worker.output() or " ready." in worker.output(),
        seconds=60,
        what="the worker to wait or start",
    )
    assert WAITING in worker.output(), worker.output()

    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    env = {"DATABASE_URL": fresh_database, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(migrate, cwd=ROOT, env={**os.environ, **env}, capture_output=True)
    assert done.returncode == 0, done.stderr
    worker.wait_ready()
    worker.stop()

    output = worker.output()
    assert "Traceback" not in output, output
    assert output.count(WAITING) == 1, output
