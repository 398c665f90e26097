"""The containers' liveness probe: ``python deploy/healthcheck.py PORT`` (standard library only).

Exits 0 when the server on ``127.0.0.1:PORT`` answers HTTP at all within 5 s, 1 otherwise.
Liveness, not readiness: it asks for ``/api/v1/`` (a coded 404 that reads no database and no
Redis), because a failing dependency is no reason to mark this process unhealthy (restarting it
would not help; ``/api/v1/health/`` says what fails). Any answer passes: the probe's ``Host`` may
be outside ``ALLOWED_HOSTS`` (400) or HTTPS may redirect (301), and either still proves the
process serves requests. Gunicorn (http) and Daphne (ws) both serve HTTP: one probe for both.
"""

from __future__ import annotations

import http.client
import sys

TIMEOUT_SECONDS = 5


def answers(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_SECONDS)
    try:
        connection.request("GET", "/api/v1/")
        return connection.getresponse().status > 0
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


if __name__ == "__main__":
    sys.exit(0 if answers(int(sys.argv[1])) else 1)
