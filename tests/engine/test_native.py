"""The compiled engine (mypyc, ``scripts/build_engine.py``) plays exactly the pure engine's
matches: 2,000 seeded random matches (``native_digests``) played by each, in its own process,
give the same events, answers and card places, match for match.

Skipped when no current compiled build exists (no C compiler, or sources changed since the
build), unless ``CHALLENGERS_REQUIRE_COMPILED_ENGINE=1`` (CI sets it: ``.ci/run``), which makes
a missing build a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from matches.engine import native

ROOT = Path(__file__).resolve().parents[2]
MATCHES, SEED = 2000, 20261130


def play(pure: bool) -> tuple[str, list[str]]:
    """Which engine played the seeded matches, in a process of its own, and their digests."""
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "tests.engine.native_digests", str(MATCHES), str(SEED)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    return result["engine"], result["digests"]


def test_the_compiled_engine_plays_the_same_matches_as_the_pure_one() -> None:
    if not native.build_current():
        if os.environ.get("CHALLENGERS_REQUIRE_COMPILED_ENGINE") == "1":
            pytest.fail("No current compiled engine: scripts/build_engine.py failed or was not run")
        pytest.skip(
            "No current compiled engine (no C compiler, or sources changed since the build)"
        )
    (compiled, ours), (pure, theirs) = play(pure=False), play(pure=True)
    assert (compiled, pure) == ("compiled", "pure")
    assert len(ours) == len(theirs) == MATCHES
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    assert differ == [], f"matches {differ[:10]} of native_digests({MATCHES}, {SEED}) differ"


def test_the_pure_engine_runs_when_asked() -> None:
    code = "from matches.engine import native; print(native.kind())"
    env = {**os.environ, native.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "pure"


def test_without_a_c_compiler_the_build_gives_up_and_the_pure_engine_runs(tmp_path: Path) -> None:
    """``scripts/build_engine.py`` in a copy of the engine, with a compiler that does not exist:
    it says why, removes the stale build it finds, and the engine imports its pure modules."""
    (tmp_path / "matches" / "engine").mkdir(parents=True)
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "matches" / "__init__.py", tmp_path / "matches")
    for path in (ROOT / "matches" / "engine").glob("*.py"):
        shutil.copy2(path, tmp_path / "matches" / "engine")
    shutil.copy2(ROOT / "scripts" / "build_engine.py", tmp_path / "scripts")
    stale = tmp_path / "build" / "engine"
    stale.mkdir(parents=True)
    (stale / "STAMP").write_text("an older build\n")
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    env["CC"] = str(tmp_path / "no-such-cc")
    build = subprocess.run(
        [sys.executable, "scripts/build_engine.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 1
    assert "Engine not compiled (no C compiler): the pure-Python engine runs" in build.stderr
    assert not stale.exists()
    code = "from matches.engine import native; print(native.kind())"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert out.stdout.strip() == "pure", out.stderr
