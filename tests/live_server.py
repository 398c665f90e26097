"""A live server for tests that talk to it over the network (the example client, the browser).

The embedded server (Daphne, the task thread, SQLite) on a temporary database and a free port, in
a subprocess, with fast match pacing and no throttling.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DAPHNE = [sys.executable, "-m", "server.daphne_server"]  # Daphne, its own refusals coded


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# Production's settings (DEBUG off, so the server's own key, JSON logs and named ALLOWED_HOSTS),
# on plain HTTP: the test server has no TLS in front of it.
PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "live-server-" + "k" * 40, "HTTPS": "false"}


def server_environment(
    database: Path, pace_ms: int = 0, *, production: bool = False
) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG"}
        and not key.startswith("THROTTLE_")
    }
    env.update(
        SQLITE_PATH=str(database),
        MATCH_EVENT_PACE_MS=str(pace_ms),
        THROTTLE_CREATE="off",
        THROTTLE_JOIN="off",
        THROTTLE_ACTION="off",
        PYTHONUNBUFFERED="1",
    )
    if production:
        env.update(PRODUCTION)
    return env


# The first database this process migrated and loaded, untouched: the next servers start from a
# copy of it (the two commands take 10-25 s on a loaded machine, a copy milliseconds).
_TEMPLATE: list[Path] = []


def _migrate_and_load(database: Path, env: dict[str, str]) -> None:
    """Migrate a fresh SQLite file and load the cards, or copy the one done so already."""
    if _TEMPLATE:
        shutil.copyfile(_TEMPLATE[0], database)
        return
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--noinput"], ["load_catalogue"]):
        subprocess.run([*manage, *command], cwd=ROOT, env=env, check=True, capture_output=True)
    folder = Path(tempfile.mkdtemp(prefix="live-server-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    _TEMPLATE.append(folder / "migrated.sqlite3")
    shutil.copyfile(database, _TEMPLATE[0])


@contextmanager
def live_server(folder: Path, pace_ms: int = 0, *, production: bool = False) -> Iterator[str]:
    """A fresh SQLite file in `folder`, migrated with the cards loaded (a copy of the first one
    this process prepared), served; yield the base URL. Everything the server logs (its own
    lines and Daphne's access log) goes to ``folder / "daphne.log"``. ``production``: DEBUG off
    (``PRODUCTION``)."""
    env = server_environment(folder / "live.sqlite3", pace_ms, production=production)
    _migrate_and_load(folder / "live.sqlite3", env)
    port = free_port()
    log_path = folder / "daphne.log"
    log = log_path.open("wb")
    # Daphne as the compose stack's ws runs it: coded refusals, access lines through LOGGING.
    server = subprocess.Popen(
        [*DAPHNE, "-b", "127.0.0.1", "-p", str(port), "server.serve:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(url, server, log_path)
        yield url
    finally:
        server.terminate()
        try:
            # Daphne waits for its open sockets to close before it exits on SIGTERM (~10 s):
            # a browser module's pages are still open then. Its temporary database is thrown
            # away, so a kill loses nothing.
            server.wait(3)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


# A safety net, not a budget: the wait ends when the server answers healthy (or exits). On a
# loaded machine (a fresh clone's suite at load 30) a start took over 30 s.
SAFETY_NET_SECONDS = 600


def _wait_until_healthy(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    """Until ``/api/v1/health/`` answers 200; fail at once if the server exits."""
    started = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=10):
                return
        except OSError:
            waited = time.monotonic() - started
            if server.poll() is not None or waited > SAFETY_NET_SECONDS:
                what = "exited" if server.poll() is not None else f"not healthy in {waited:.0f} s"
                raise AssertionError(
                    f"the live server {what} (waiting for {url}/api/v1/health/ to answer 200):\n"
                    + log_path.read_text(errors="replace")
                ) from None
            time.sleep(0.2)
