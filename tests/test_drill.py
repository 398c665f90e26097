"""The short fault drill: bot tournaments through a Redis restart and a PostgreSQL restart.

``scripts/drill.py --short`` runs on a PostgreSQL cluster and a Redis server of its own (never
the machine's), with two workers and two Daphnes, and plays 4 tournaments through each fault as
a client would. Every tournament must finish and verify, every follower must have received every
stored event exactly once, no tournament read may answer 5xx, and play must resume.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Generous: a recovery measured in seconds here; the stall was 120 s, and the drill's
# own target (10 s) is its exit code, not this bound, on a machine shared with other work.
RECOVERY_BOUND_SECONDS = 30


def _why_not() -> str | None:
    if not (
        os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
    ):
        return "a full-stack test (the CI run sets DATABASE_URL and REDIS_URL)"
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb") and not shutil.which("initdb"):
        return "no PostgreSQL server programs to start a private cluster"
    if not shutil.which("redis-server"):
        return "no redis-server to start a private one"
    return None


@pytest.mark.real_worker
@pytest.mark.timeout(1200)
@pytest.mark.xfail(
    strict=True,
    reason="stuck tournaments are re-driven by issue 22's reconciler, not merged yet (i22core)",
)
@pytest.mark.skipif(_why_not() is not None, reason=str(_why_not()))
def test_every_tournament_finishes_verifies_and_streams_whole_through_restarts() -> None:
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
    table = result.stdout
    assert [row["fault"] for row in rows] == ["redis-restart", "postgres-restart"], table
    for row in rows:
        assert row["finished"] == row["verified"] == row["tournaments"] == 4, table
        assert (row["lost"], row["duplicated"], row["fives"]) == (0, 0, 0), table
        assert row["recovery"] is not None, table
        assert row["recovery"] <= RECOVERY_BOUND_SECONDS, table
