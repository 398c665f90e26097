"""``examples/play.py`` plays a whole tournament against a live server, so it cannot drift.

The server is the embedded one (Daphne, the task thread, SQLite) on a temporary database and a
free port, in a subprocess, with instant match pacing and no throttling.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_environment(database: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
        and not key.startswith("THROTTLE_")
    }
    env.update(
        SQLITE_PATH=str(database),
        MATCH_EVENT_PACE_MS="0",
        THROTTLE_CREATE="off",
        THROTTLE_JOIN="off",
        THROTTLE_ACTION="off",
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture
def live_server_url(tmp_path: Path) -> Iterator[str]:
    env = server_environment(tmp_path / "example.sqlite3")
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--noinput"], ["load_catalogue"]):
        subprocess.run([*manage, *command], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    log = (tmp_path / "daphne.log").open("wb")
    server = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.serve:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError((tmp_path / "daphne.log").read_text()) from None
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(10)
        log.close()


@pytest.mark.timeout(300)
def test_the_example_client_plays_a_whole_tournament_to_a_champion(live_server_url: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "play.py"), live_server_url, "--seats", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Tournament ") and "Round 1: Deck Phase" in lines
    assert "Round 8: Deck Phase" in lines  # the Final at four seats
    assert lines[-1].startswith("Champion: ")


def test_the_readme_links_the_examples() -> None:
    assert "examples/" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_sqlite_path_moves_the_embedded_database() -> None:
    from config.env import BASE_DIR, read_environment

    assert read_environment({}).databases["default"]["NAME"] == BASE_DIR / "db.sqlite3"
    moved = read_environment({"SQLITE_PATH": "/tmp/other.sqlite3"}).databases["default"]
    assert moved["NAME"] == Path("/tmp/other.sqlite3")
