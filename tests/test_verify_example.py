"""``examples/verify.py`` checks a finished tournament on a live server, and catches a forgery.

A tournament is played to its end by ``examples/play.py`` on the embedded server, which prints
the commitment while it is in its lobby; the verifier (run from this checkout, given that
commitment) must say ``OK``. Then one recorded shuffle is altered in the server's database, as a
dishonest server would, and the verifier must say ``FAIL``. (``tests/test_verifier.py``
installs the package on its own and forges the documents.)
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.live_server import ROOT, live_server


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=240
    )


def _tamper(database: Path) -> None:
    """Reverse one recorded deck shuffle (a server dealing itself a better order)."""
    with sqlite3.connect(database) as db:
        row = db.execute(
            "SELECT id, payload FROM matches_matchevent WHERE kind = 'shuffle' ORDER BY id LIMIT 1"
        ).fetchone()
        payload = json.loads(row[1])
        payload["order"] = list(reversed(payload["order"]))
        db.execute(
            "UPDATE matches_matchevent SET payload = ? WHERE id = ?", (json.dumps(payload), row[0])
        )


def test_the_verifier_passes_a_finished_tournament_and_fails_a_tampered_one(
    tmp_path: Path,
) -> None:
    with live_server(tmp_path) as url:
        played = _run(str(ROOT / "examples" / "play.py"), url, "--seats", "3")
        assert played.returncode == 0, played.stdout + played.stderr
        tournament = played.stdout.split()[1].rstrip(",")
        commitment = played.stdout.splitlines()[1].split()[1]
        command = [str(ROOT / "examples" / "verify.py"), commitment, "--url", url]
        verified = _run(*command, "--tournament", tournament)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        (line,) = verified.stdout.splitlines()
        assert line.startswith(f"OK tournament {tournament}: the commitment opens"), line
        _tamper(tmp_path / "live.sqlite3")
        forged = _run(*command, "--tournament", tournament)
        assert forged.returncode == 1, forged.stdout + forged.stderr
        (line,) = forged.stdout.splitlines()
        assert line.startswith("FAIL match ") and "re-playing it does not give" in line, line
