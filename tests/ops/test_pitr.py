"""Point-in-time recovery with PostgreSQL's own tools, the steps docs/operations.md writes down
("Point-in-time recovery"): the write-ahead log archived by ``archive_command`` into a folder, a
base backup by ``pg_basebackup``, and a new cluster recovered from the two to a moment between two
commits: the first is there, the second is not. On a private PostgreSQL cluster of the test's own
(``scripts/private_services.py``)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import private_services  # noqa: E402
from private_services import PrivatePostgres  # noqa: E402
from stack import wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(
    private_services.available() is not None, reason=str(private_services.available())
)


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder the server's user (``postgres`` when we are root) may enter (pytest's
    ``tmp_path`` is below a folder only its owner may)."""
    made = Path(tempfile.mkdtemp(prefix="pitr-"))
    made.chmod(0o755)
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.fixture
def clusters(folder: Path) -> Iterator[list[PrivatePostgres]]:
    made: list[PrivatePostgres] = []
    yield made
    for cluster in made:
        cluster.stop(mode="immediate")


def _owned_folder(path: Path) -> Path:
    path.mkdir(mode=0o700)
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")
    return path


def _connect(cluster: PrivatePostgres) -> psycopg.Connection[tuple[object, ...]]:
    return psycopg.connect(
        f"postgres://postgres@127.0.0.1:{cluster.port}/postgres", autocommit=True
    )


def test_a_base_backup_and_the_archived_log_recover_to_a_moment_between_two_commits(
    folder: Path, clusters: list[PrivatePostgres]
) -> None:
    archive = _owned_folder(folder / "wal")
    primary = PrivatePostgres(folder / "primary")
    clusters.append(primary)
    primary.create()
    # Step 1 of the docs: archive every finished WAL segment, never overwriting one.
    primary.configure(wal_level="replica", archive_mode="on",
                      archive_command=f"test ! -f {archive}/%f && cp %p {archive}/%f")  # fmt: skip
    primary.start()
    with _connect(primary) as conn:
        conn.execute("CREATE TABLE moves (n int)")
    # Step 2: a base backup (the WAL it needs streamed into it).
    base = folder / "restored"
    base.mkdir(mode=0o755)
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    primary.run("pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
                "-D", str(base / "data"), "--checkpoint=fast")  # fmt: skip

    with _connect(primary) as conn:
        conn.execute("INSERT INTO moves VALUES (1)")
        moment = _one(conn, "SELECT clock_timestamp()")
        conn.execute("INSERT INTO moves VALUES (2)")
        segment = _one(conn, "SELECT pg_walfile_name(pg_switch_wal())")
    wait_until(lambda: (archive / str(segment)).exists(), seconds=60, what=f"{segment} archived")
    primary.stop()

    # Step 3: a new cluster from the base backup, recovering from the archive up to `moment`.
    restored = PrivatePostgres(base)
    clusters.append(restored)
    restored.configure(archive_mode="off", restore_command=f"cp {archive}/%f %p",
                       recovery_target_time=str(moment),
                       recovery_target_action="promote")  # fmt: skip
    (restored.data / "recovery.signal").touch()
    restored.start()
    with _connect(restored) as conn:
        wait_until(lambda: not _in_recovery(conn), seconds=60, what="recovery ended")
        assert conn.execute("SELECT n FROM moves ORDER BY n").fetchall() == [(1,)]
        conn.execute("INSERT INTO moves VALUES (3)")  # promoted: it takes writes


def _in_recovery(conn: psycopg.Connection[tuple[object, ...]]) -> bool:
    return bool(_one(conn, "SELECT pg_is_in_recovery()"))


def _one(conn: psycopg.Connection[tuple[object, ...]], query: str) -> object:
    row = conn.execute(query).fetchone()
    assert row is not None
    return row[0]
