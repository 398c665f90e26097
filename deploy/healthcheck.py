"""The containers' health probes (standard library only: no Django start per probe).

``python deploy/healthcheck.py PORT`` exits 0 when the server on ``127.0.0.1:PORT`` answers HTTP
at all within 5 s, 1 otherwise. Liveness, not readiness: it asks for ``/api/v1/live/`` (which
reads no database and no Redis), because a failing dependency is no reason to mark this
process unhealthy (restarting it would not help; ``/api/v1/health/`` says what fails). Any answer
passes: the probe's ``Host`` may be outside ``ALLOWED_HOSTS`` (400) or HTTPS may redirect (301),
and either still proves the process serves requests. Gunicorn (http) and Daphne (ws) both serve
HTTP: one probe for both.

``python deploy/healthcheck.py --fresh FILE [SECONDS]`` exits 0 when ``FILE`` was modified at most
``SECONDS`` ago (default ``HEARTBEAT_STALE_SECONDS`` from the environment, else 15). A worker's
clock touches its ``HEARTBEAT_FILE`` on each tick, Celery beat after each task it sends, and
the backup loop after each dump (with its own bound).
"""

from __future__ import annotations

import http.client
import os
import sys
import time

TIMEOUT_SECONDS = 5
DEFAULT_STALE_SECONDS = 15


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_SECONDS)
    try:
        connection.request("GET", "/api/v1/live/")
        return connection.getresponse().status > 0
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def fresh(path: str, seconds: float) -> bool:
    """Whether ``path`` exists and was modified at most ``seconds`` ago."""
    try:
        return time.time() - os.stat(path).st_mtime <= seconds
    except OSError:
        return False


def main(argv: list[str]) -> bool:
    if argv[:1] == ["--fresh"]:
        default = os.environ.get("HEARTBEAT_STALE_SECONDS") or DEFAULT_STALE_SECONDS
        return fresh(argv[1], float(argv[2] if len(argv) > 2 else default))
    return answers(int(argv[0]))


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
