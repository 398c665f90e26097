"""The compose stack as shipped, stood in for by processes (``tests/ops/compose_standin.py``):
every app service of ``docker-compose.yml`` starts as its container would (its user, environment,
volumes and secrets read from the compose file and the Dockerfile) and passes its own
healthcheck; then a restore drill on it: tournaments played by its workers, a backup taken by the
backup service's command mid-season, restored into a fresh database, every finished tournament
verified there."""

from __future__ import annotations

import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.ops.compose_standin import ROOT, StandIn, standing_in

sys.path.insert(0, str(ROOT / "scripts"))

# Generous bounds for events on a loaded two-core machine; each wait ends at its event.
SECONDS = 240


def _why_not() -> str | None:
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not (on_postgres and os.environ.get("REDIS_URL")):
        return "a full-stack test (the CI run sets DATABASE_URL and REDIS_URL)"
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        return "starts the services as the image's user: needs root and setpriv"
    if not shutil.which("pg_dump"):
        return "the backup service needs pg_dump"
    return None


pytestmark = [
    pytest.mark.long,
    pytest.mark.real_worker,
    pytest.mark.timeout(1200),
    pytest.mark.skipif(_why_not() is not None, reason=str(_why_not())),
]


def _database_url(suffix: str) -> str:
    url = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(url._replace(path=f"{url.path}_{suffix}"))


def _recreate(url: str, *, drop_only: bool = False) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{parts.path.lstrip("/")}"')


@pytest.fixture
def stack() -> Iterator[StandIn]:
    database = _database_url("compose")
    _recreate(database)
    root = Path(tempfile.mkdtemp(prefix="compose-"))
    root.chmod(0o755)  # the services run as the image's user, below this folder
    operator = {  # what an operator exports before `docker compose up`
        "SECRET_KEY": secrets.token_urlsafe(50),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "ADMIN_PASSWORD": secrets.token_urlsafe(16),
    }
    urls = {"postgres": database, "redis": os.environ["REDIS_URL"]}
    try:
        with standing_in(root, urls, operator) as running:
            yield running
    finally:
        _recreate(database, drop_only=True)


def test_every_app_service_starts_as_its_container_and_passes_its_healthcheck(
    stack: StandIn,
) -> None:
    stack.up(seconds=SECONDS)
    for name, container in stack.containers.items():
        if container.healthcheck is not None:
            stack.wait_healthy(name, seconds=SECONDS)
    assert stack.containers["init"].process is not None
    assert stack.containers["init"].process.returncode == 0
