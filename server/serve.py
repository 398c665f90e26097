"""Daphne's entry point (``./scripts/serve``, the compose stack's ``ws``).

It is the ASGI app, with its database pool opened at start (``infra.dbpool``). So readiness is
truthful from the first probe. On the embedded defaults it also has its own clock.

With no broker, tasks run on the server's own worker thread. This entry starts that thread's
clock: the deadline sweep every two seconds, as Celery beat does on the full stack. Tests import
``server.asgi`` instead. So no background sweep ever runs inside a test.
"""

from __future__ import annotations

from django.conf import settings

from infra.dbpool import open_pool
from infra.taskqueue import start_clock
from server.asgi import application

open_pool()
if settings.TASK_RUNNER == "thread":
    start_clock()

__all__ = ["application"]
