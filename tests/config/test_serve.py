"""``manage.py serve`` (what ``./scripts/serve`` runs): every step in one Django start, each
timed, then Daphne from the same process; a second start has nothing to do."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.live_server import ROOT, free_port, server_environment

STEPS = (
    "Compiling the translations",
    "Applying migrations",
    "Loading the card catalogue",
    "Checking the admin user",
)


@contextmanager
def serving(database: Path, log: Path) -> Iterator[str]:
    """``manage.py serve`` on `database`, until its readiness probe answers 200."""
    port = free_port()
    env = server_environment(database) | {"LANGUAGE": "en"}
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_ready(f"http://127.0.0.1:{port}", server, log)
            yield log.read_text(encoding="utf-8")
        finally:
            server.terminate()
            server.wait()


def _wait_until_ready(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/v1/ready/", timeout=5) as answer:
                assert answer.status == 200
                return
        except OSError:
            assert server.poll() is None, log.read_text(encoding="utf-8")


@pytest.mark.long
@pytest.mark.timeout(600)
def test_a_first_and_a_second_start_serve_from_one_process(tmp_path: Path) -> None:
    database = tmp_path / "fresh.sqlite3"
    with serving(database, tmp_path / "first.log") as first:
        for step in STEPS:
            assert f"{step}…" in first and f"{step}: done in " in first, first
        assert "Admin user created" in first and " 0 created" not in first, first
        assert first.count("AXES: BEGIN") == 1  # Django started once
    with serving(database, tmp_path / "second.log") as second:
        assert "Cards: 0 created, 0 updated" in second and "Admin user 'admin' exists" in second
        assert "Set up in " in second
