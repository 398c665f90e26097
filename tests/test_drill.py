"""The short fault drill: bot tournaments through a Redis restart and a PostgreSQL restart.

``scripts/drill.py --short`` runs on a PostgreSQL cluster and a Redis server of its own (never
the machine's), with two workers, beat and two Daphnes, and plays 4 tournaments through each
fault as a client would. Every tournament must finish and verify, every follower must have
received every stored event exactly once, play must resume, and no tournament read may answer
5xx. The drill runs once for the module; each test reads its table.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Generous: recovery is a few seconds here (the stall was 120 s, then forever); the
# drill's own 10 s target is its exit code, not this bound, on a machine shared with other work.
RECOVERY_BOUND_SECONDS = 30


def _why_not() -> str | None:
    full_stack = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not (full_stack and os.environ.get("REDIS_URL")):
        return "a full-stack test (the CI run sets DATABASE_URL and REDIS_URL)"
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb") and not shutil.which("initdb"):
        return "no PostgreSQL server programs to start a private cluster"
    if not shutil.which("redis-server"):
        return "no redis-server to start a private one"
    return None


pytestmark = [
    pytest.mark.long,
    pytest.mark.real_worker,
    pytest.mark.timeout(1200),
    pytest.mark.skipif(_why_not() is not None, reason=str(_why_not())),
]


@pytest.fixture(scope="module")
def drill() -> tuple[str, list[dict[str, Any]]]:
    """The short drill's table (as printed) and its rows."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "drill.py"), "--short", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1100,
        check=False,
    )
    assert result.stdout.strip(), result.stderr[-3000:]
    rows = json.loads(result.stdout.strip().splitlines()[-1])
    assert [row["fault"] for row in rows] == ["redis-restart", "postgres-restart"], result.stdout
    return result.stdout, rows


def test_every_tournament_finishes_verifies_and_streams_whole_through_restarts(
    drill: tuple[str, list[dict[str, Any]]],
) -> None:
    table, rows = drill
    for row in rows:
        assert row["in_flight"] == row["tournaments"] == 4, table  # the fault hit them all
        assert row["finished"] == row["verified"] == row["tournaments"], table
        assert (row["lost"], row["duplicated"]) == (0, 0), table
        assert row["recovery"] is not None, table
        assert row["recovery"] <= RECOVERY_BOUND_SECONDS, table


def test_no_tournament_read_answers_5xx_through_restarts(
    drill: tuple[str, list[dict[str, Any]]],
) -> None:
    table, rows = drill
    assert [row["fives"] for row in rows] == [0, 0], table
