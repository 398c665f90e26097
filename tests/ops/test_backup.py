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


def _dumps(folder: Path, *stamps: str) -> list[Path]:
    made = [folder / f"challengers-{stamp}Z.dump" for stamp in stamps]
    for path in made:
        path.write_bytes(b"x")
    return made


def test_a_dump_is_named_by_its_utc_time_and_only_ours_are_pruned(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from infra.backups import dump_path, dumps_to_prune

    now = datetime(2026, 12, 6, 7, 0, tzinfo=UTC)
    assert dump_path(tmp_path, now).name == "challengers-20261206T070000Z.dump"
    _dumps(tmp_path, "20261206T070000", "20261101T070000")
    (tmp_path / "challengers-20261205T000000Z.dump.partial").write_bytes(b"half")
    (tmp_path / "challengers-yesterday.dump").write_bytes(b"not dated")
    (tmp_path / "notes.txt").write_text("not ours")
    assert [p.name for p in dumps_to_prune(tmp_path, daily=1, weekly=0)] == [
        "challengers-20261101T070000Z.dump"
    ]


def test_retention_keeps_the_newest_of_each_recent_day_and_week(tmp_path: Path) -> None:
    from infra.backups import dumps_to_prune

    # Sunday 6 December 2026 (ISO week 49), twice; then one a day back to Monday 23 November
    # (week 48: 30 Nov - 6 Dec is week 49), and two of week 47.
    days = [f"202612{d:02}" for d in range(6, 0, -1)] + [f"202611{d}" for d in range(30, 22, -1)]
    made = _dumps(tmp_path, "20261206T180000", *(f"{day}T070000" for day in days),
                  "20261118T070000", "20261116T070000")  # fmt: skip
    newest, sunday, saturday, friday = made[:4]
    # Three days: the newest of 6, 5, 4 December; 0 weeks.
    assert set(dumps_to_prune(tmp_path, daily=3, weekly=0)) == set(made) - {
        newest,
        saturday,
        friday,
    }
    # Three weeks: the newest of weeks 49, 48 (Sunday 29 November) and 47 (18 November).
    week48, week47 = made[made.index(tmp_path / "challengers-20261129T070000Z.dump")], made[-2]
    assert set(dumps_to_prune(tmp_path, daily=0, weekly=3)) == set(made) - {newest, week48, week47}
    assert set(dumps_to_prune(tmp_path, daily=2, weekly=2)) == set(made) - {
        newest,
        saturday,
        week48,
    }
    assert sunday in dumps_to_prune(tmp_path, daily=7, weekly=4)  # the day's older one


def test_retention_never_deletes_the_newest_and_an_outage_uses_no_place(tmp_path: Path) -> None:
    from infra.backups import dumps_to_prune

    # Backups stopped for a month: the last days that have a dump are kept, however old.
    made = _dumps(tmp_path, "20261002T070000", "20261001T070000", "20260930T070000")
    assert dumps_to_prune(tmp_path, daily=2, weekly=0) == made[2:]
    assert dumps_to_prune(tmp_path, daily=0, weekly=0) == made[1:]
