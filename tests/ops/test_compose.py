"""The compose stack as shipped, stood in for by processes (``tests/ops/compose_standin.py``):
every app service of ``docker-compose.yml`` starts as its container would (its user, environment,
volumes and secrets read from the compose file and the Dockerfile) and passes its own
healthcheck; then a restore drill on it: tournaments played by its workers, a backup taken by the
backup service's command mid-season, restored into a fresh database, every finished tournament
verified there, and the tournaments still playing at the dump carried to their end on the restored
database by a worker container of its own."""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.ops.compose_standin import ROOT, StandIn, standing_in, unavailable, wait_until
from tests.ops.helpers import own_redis_db

sys.path.insert(0, str(ROOT / "scripts"))

from drill_clients import Api
from private_services import PrivateRedis

# Generous bounds for events on a loaded two-core machine; each wait ends at its event.
SECONDS = 240


def _why_not() -> str | None:
    return unavailable("pg_dump", "the backup service")


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


@pytest.fixture(scope="module")
def stack() -> Iterator[StandIn]:
    database = _database_url("compose")
    _recreate(database)
    root = Path(tempfile.mkdtemp(prefix="compose-"))
    root.chmod(0o755)  # the services run as the image's user, below this folder
    operator = {  # what an operator exports before `docker compose up`
        "SECRET_KEY": secrets.token_urlsafe(50),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "ADMIN_PASSWORD": secrets.token_urlsafe(16),
        "MATCH_EVENT_PACE_MS": "0",  # bots' matches at full speed: a short drill
    }
    urls = {"postgres": database, "redis": own_redis_db(os.environ["REDIS_URL"], 11)}
    try:
        with standing_in(root, urls, operator) as running:
            running.up(seconds=SECONDS)
            yield running
    finally:
        _recreate(database, drop_only=True)


def test_every_app_service_starts_as_its_container_and_passes_its_healthcheck(
    stack: StandIn,
) -> None:
    for name, container in stack.containers.items():
        if container.healthcheck is not None:
            stack.wait_healthy(name, seconds=SECONDS)
    assert stack.containers["init"].process is not None
    assert stack.containers["init"].process.returncode == 0
    # Nothing failed on the way, not even what a process survives (gunicorn's control socket
    # under a home the image's user has not got: "[ERROR] Control server error").
    for name, container in stack.containers.items():
        assert _error_lines(container.output()) == [], name


def _error_lines(output: str) -> list[str]:
    marks = ("[ERROR]", "[CRITICAL]", '"level": "ERROR"', '"level": "CRITICAL"', "Traceback")
    return [line for line in output.splitlines() if any(mark in line for mark in marks)]


def test_a_backup_taken_mid_season_restores_and_every_finished_tournament_verifies(
    stack: StandIn,
) -> None:
    from drill_clients import open_tournament

    made = stack.run("http", "python", "manage.py", "create_organizer", "compose")
    assert made.returncode == 0, made.stderr
    api = Api([int(stack.ports["8000"])], made.stdout.strip())
    finished = [open_tournament(api, seats=2) for _ in range(2)]
    wait_until(lambda: _all_finished(api, finished), seconds=SECONDS, what="first two finished")
    playing = [open_tournament(api, seats=2) for _ in range(2)]

    # Mid-season: two more tournaments under way. The backup service's own command, once more.
    dumped = stack.run("backup", "python", "manage.py", "backup", "--dir", "/backups")
    assert dumped.returncode == 0, dumped.stderr
    dump = max(stack.volume("backups").glob("challengers-*.dump"))

    restored = _database_url("compose_restored")
    _recreate(restored, drop_only=True)
    try:
        name = urlsplit(restored).path.lstrip("/")
        back = stack.run(
            "backup", "python", "manage.py", "restore", f"/backups/{dump.name}", "--into", name
        )
        assert back.returncode == 0, back.stderr
        checked = stack.run("backup", "python", "manage.py", "verify_tournaments",
                            DATABASE_URL=restored)  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
        count = int(checked.stdout.split("Verified ")[1].split()[0])
        assert count >= len(finished), checked.stdout  # and any of `playing` done by then
        assert "all ok" in checked.stdout
        _carry_on(stack, restored, tournaments=len(finished) + len(playing))
    finally:
        _recreate(restored, drop_only=True)
    wait_until(lambda: _all_finished(api, playing), seconds=SECONDS, what="the others finished")


def _carry_on(stack: StandIn, restored: str, *, tournaments: int) -> None:
    """The restored database's unfinished tournaments played to their end by one more worker
    container on it, with a broker of its own (empty: every task the dump's tournaments owed is
    lost, the reconciler derives it from their rows), then every tournament verified."""
    broker = PrivateRedis(stack.root / "restored-redis")
    broker.start()
    try:
        stack.start_another("worker", "restored-worker", DATABASE_URL=restored,
                            REDIS_URL=broker.url)  # fmt: skip
        done = lambda: _finished_in(restored) == tournaments  # noqa: E731
        wait_until(done, seconds=SECONDS, what="the restored database's tournaments finished")
        checked = stack.run("backup", "python", "manage.py", "verify_tournaments",
                            DATABASE_URL=restored)  # fmt: skip
        assert f"Verified {tournaments} finished tournaments: all ok." in checked.stdout, (
            checked.stdout + checked.stderr
        )
    finally:
        stack.stop("restored-worker")
        broker.stop()


def _finished_in(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM tournaments_tournament WHERE status = 'finished'"
        ).fetchone()
    return int(row[0]) if row else 0


def _all_finished(api: Api, ids: list[int]) -> bool:
    return all(api.status(f"tournaments/{tid}/")[1].get("status") == "finished" for tid in ids)
