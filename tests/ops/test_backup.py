"""The restore drill: dump the database after finished tournaments (one of them archived),
restore the dump into a fresh database, and verify every tournament in it there."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.ops.helpers import finished_bot_tournaments
from tests.workers.conftest import database_url_of_this_run
from tournaments.services.archive import tournaments_archive

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)

on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql" or shutil.which("pg_dump") is None,
    reason="needs PostgreSQL (DATABASE_URL) and pg_dump",
)


@pytest.fixture
def fresh_name() -> Iterator[str]:
    """A database name nobody uses; the database is dropped after the test if it was made."""
    name = f"{connection.settings_dict['NAME']}_drill_{secrets.token_hex(3)}"
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage_in(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` run by a new process against ``database``."""
    url = database_url_of_this_run().rsplit("/", 1)[0] + f"/{database}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)


@on_postgres
def test_a_dump_restored_into_a_fresh_database_verifies_every_tournament(
    catalogue: Any, tmp_path: Path, fresh_name: str
) -> None:
    ids = finished_bot_tournaments(2)
    tournaments_archive(tournament_ids=[ids[0]])  # one log archived, one as played
    dump = tmp_path / "challengers.dump"
    call_command("backup", str(dump))
    assert dump.stat().st_size > 0

    call_command("restore", str(dump), "--into", fresh_name)
    checked = manage_in(fresh_name, "verify_tournaments")
    assert checked.returncode == 0, checked.stderr
    assert "Verified 2 finished tournaments: all ok." in checked.stdout

    # Over a database that has the same tables: they are dropped and restored.
    replaced = manage_in(fresh_name, "restore", str(dump), "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert manage_in(fresh_name, "verify_tournaments").returncode == 0

    with pytest.raises(CommandError, match="exists"):
        call_command("restore", str(dump), "--into", fresh_name)


@on_postgres
def test_a_corrupted_restore_fails_loudly(db: None, tmp_path: Path, fresh_name: str) -> None:
    broken = tmp_path / "broken.dump"
    broken.write_bytes(b"not a dump")
    with pytest.raises(CommandError, match="pg_restore failed"):
        call_command("restore", str(broken), "--into", fresh_name)


def test_backup_refuses_without_postgresql(db: None, tmp_path: Path) -> None:
    if connection.vendor == "postgresql":
        pytest.skip("the refusal is for the embedded SQLite database")
    with pytest.raises(CommandError, match="needs PostgreSQL"):
        call_command("backup", str(tmp_path / "x.dump"))


def test_scheduled_dumps_keep_the_newest_and_the_recent_ones(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from config.backups import dump_path, dumps_to_prune

    now = datetime(2026, 12, 6, 7, 0, tzinfo=UTC)
    made = [dump_path(tmp_path, now - timedelta(days=days)) for days in (0, 1, 2, 40)]
    for path in made:
        path.write_bytes(b"x")
    (tmp_path / "challengers-20261205T000000Z.dump.partial").write_bytes(b"half")
    (tmp_path / "notes.txt").write_text("not ours")
    assert made[0].name == "challengers-20261206T070000Z.dump"
    assert dumps_to_prune(tmp_path, keep=3, keep_days=30, now=now) == [made[3]]
    assert dumps_to_prune(tmp_path, keep=2, keep_days=30, now=now) == [made[2], made[3]]
    assert dumps_to_prune(tmp_path, keep=14, keep_days=1, now=now) == [made[2], made[3]]
    # The newest is kept even when it is too old.
    assert dumps_to_prune(tmp_path, keep=1, keep_days=1, now=now + timedelta(days=9)) == made[1:]
