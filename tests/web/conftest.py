"""The web client in a real browser: Debian's Chromium driven by Playwright, against a live server.

Playwright's own browser builds cannot be downloaded here, so the tests launch the system's
Chromium (`scripts/lib.sh` installs it). Screenshots go to `test-artifacts/screenshots/`
(git-ignored): the CI artifact, kept after the run (`scripts/test` prints its path and count).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.live_server import ROOT, live_server, server_environment

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("web"), pace_ms=5) as url:
        yield url


@dataclass(frozen=True)
class Organized:
    """A live server and an organizer's caller of its API: ``call(path, body)`` POSTs ``body``
    (``method``: or PATCHes…) to ``/api/v1/<path>`` with the organizer's token and answers the
    JSON."""

    url: str
    call: Callable[..., Any]


@pytest.fixture(scope="module")
def organized(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Organized]:
    """A module's own live server (its rows are that module's) with an organizer on it."""
    folder = tmp_path_factory.mktemp("organized")
    with live_server(folder, pace_ms=5) as url:
        made = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "create_organizer", "org"],
            cwd=ROOT,
            env=server_environment(folder / "live.sqlite3", 5),
            check=True,
            capture_output=True,
            text=True,
        )
        yield Organized(url, _caller(url, made.stdout.strip().splitlines()[-1]))


def _caller(url: str, token: str) -> Callable[..., Any]:
    def call(path: str, body: Any = None, method: str = "POST") -> Any:
        request = urllib.request.Request(
            f"{url}/api/v1/{path}",
            data=json.dumps(body or {}).encode(),
            method=method,
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    return call


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail("Chromium is missing: ./scripts/test installs it (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        yield chromium
        chromium.close()


SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The screenshots' folder, emptied first when one process runs the tests. Under
    pytest-xdist each worker has a session of its own, so one emptying it could delete another's
    screenshots: ``scripts/test`` empties it before the run instead."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
