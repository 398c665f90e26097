"""The web client in a real browser: Debian's Chromium driven by Playwright, against a live server.

Playwright's own browser builds cannot be downloaded here, so the tests launch the system's
Chromium (`scripts/lib.sh` installs it). Screenshots go to `test-artifacts/screenshots/`
(git-ignored): the CI artifact, kept after the run (`scripts/test` prints its path and count).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.live_server import ROOT, live_server

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
