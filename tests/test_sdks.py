"""The SDKs (``sdk/``) are what ``manage.py export_sdks`` makes from the committed schemas, and the
TypeScript one plays a whole tournament against a live server (the Python one does in
tests/test_example_client.py).

Both tests need node and npm (``npm ci`` in ``sdk/typescript`` on first use, from its lock): they
share this file so that no two test processes install there at once.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from server import sdks
from tests.live_server import ROOT, live_server

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None or shutil.which("npm") is None, reason="node and npm are not installed"
)


@needs_node
def test_the_committed_sdks_are_generated_from_the_committed_schemas() -> None:
    """The drift check: regenerated into a temporary folder, every generated file equals the
    committed one (else: run ``manage.py export_sdks`` and commit sdk/)."""
    diff = sdks.stale()
    assert diff == "", "sdk/ differs from schema/: run manage.py export_sdks\n" + diff[:20_000]


def test_the_generated_files_are_marked_and_the_rest_is_not() -> None:
    for name in sdks.GENERATED:
        assert "manage.py export_sdks" in (sdks.SDK_DIR / name).read_text(encoding="utf-8")[:300]
    written = {"python/challengers_client/client.py", "typescript/src/index.ts"}
    assert not written & set(sdks.GENERATED)
    for name in written:
        assert (sdks.SDK_DIR / name).exists()


@pytest.fixture
def live_server_url(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path, production=True) as url:
        yield url


@needs_node
@pytest.mark.long
def test_the_typescript_example_plays_a_whole_tournament_to_a_champion(
    live_server_url: str,
) -> None:
    """examples/play.mts on the TypeScript SDK, type-checked by tsc first (the SDK and the
    example against the generated types), then run with tsx, its stream dropped on purpose."""
    assert sdks.node_ready()
    bin_dir = sdks.TS_DIR / "node_modules" / ".bin"
    checked = subprocess.run(
        [str(bin_dir / "tsc"), "-p", str(sdks.TS_DIR)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # Node 20 has its WebSocket client behind a flag; from node 22 it is there without it.
    major = int(re.findall(r"\d+", subprocess.check_output([str(NODE), "--version"], text=True))[0])
    flags = ["--experimental-websocket"] if major < 22 else []
    example = str(ROOT / "examples" / "play.mts")
    options = ["--seats", "4", "--drop-every", "100"]
    result = subprocess.run(
        [str(bin_dir / "tsx"), *flags, example, live_server_url, *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Tournament ") and "Round 1: Deck Phase" in lines
    assert "Round 8: Deck Phase" in lines  # the Final at four seats
    assert sum("stream dropped after event" in line for line in lines) >= 3
    assert lines[-1].startswith("Champion: ")
