"""A JavaScript client opens the commitment with the exact seed it reads from the REST view and
from the stream (node, as a browser would: ``JSON.parse`` rounds any number past 2^53)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ROOT, live_server

NODE = shutil.which("node")


@pytest.fixture
def live_server_url(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path) as url:
        yield url


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_javascript_client_opens_the_commitment_from_rest_and_from_the_stream(
    live_server_url: str,
) -> None:
    played = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "play.py"), live_server_url, "--seats", "2"],
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    found = re.match(r"Tournament (\d+),", played.stdout)
    assert found, played.stdout
    tournament = found[1]
    with urllib.request.urlopen(f"{live_server_url}/api/v1/tournaments/{tournament}/replay/") as r:
        seed = json.load(r)["seed"]  # the exact digits, read by Python
    script = ROOT / "tests" / "node" / "open_commitment.mjs"
    node = [str(NODE), "--experimental-websocket", str(script), live_server_url, tournament]
    result = subprocess.run(node, capture_output=True, text=True, timeout=90)
    assert result.returncode == 0, result.stderr
    read = json.loads(result.stdout)
    assert read["rest"] == {"seed": seed, "type": "string", "opens": True}
    assert read["stream"] == {"seed": seed, "type": "string", "opens": True}
