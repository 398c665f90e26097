"""The web client's board draws what the engine holds, after every event of hundreds of matches.

``board_truth`` plays 160 matches of each box (the base game, the Beach Cup) with the pure engine
and reads the engine's own board after every event (flag and the cards under it, the flag's
defence, the attack and its total, benches and the seats wide cards block, frozen seats, exhaust
piles, deck counts, fans); ``fold_check.mjs`` folds the same events through the client's
``fold.js`` in node — every event (a replay) and the public ones as the observer shows a
spectator — and compares after each. Events stored before they stated these values (no
``defence`` on a later ``flag``, no ``deck``…) are not expected to pass: the client leaves such
a value out rather than guess it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from matches.engine import native

ROOT = Path(__file__).resolve().parents[2]
PER_BOX = 160


def truth(path: Path) -> None:
    """Write the matches and the engine's boards to ``path`` (pure engine, its own process)."""
    env = {**os.environ, native.PURE_ENV: "1"}
    command = [sys.executable, "-m", "tests.frontend.board_truth", str(PER_BOX), str(path)]
    subprocess.run(command, cwd=ROOT, env=env, check=True)


def folded(path: Path) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed to run the client's fold (Node.js 20 is on the machine)")
    command = [node, "tests/frontend/fold_check.mjs", str(path)]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_board_the_client_folds_is_the_engines_after_every_event(tmp_path: Path) -> None:
    path = tmp_path / "truth.jsonl"
    truth(path)
    result = folded(path)
    assert result["matches"] == {"base": PER_BOX, "beach": PER_BOX}
    assert result["compared"] > 100 * PER_BOX
    assert result["mismatched"] == 0, (result["fields"], result["first"][:2])
