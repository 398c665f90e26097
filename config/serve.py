"""The embedded server's entry point (``./scripts/serve``): the ASGI app plus its own clock.

With no broker, tasks run on the server's own worker thread; this entry starts that thread's
clock (the deadline sweep every two seconds, as Celery beat does on the full stack). Tests import
``config.asgi`` instead, so no background sweep ever runs inside a test.
"""

from __future__ import annotations

from django.conf import settings

from config.asgi import application
from config.taskqueue import start_clock

if settings.TASK_RUNNER == "thread":
    start_clock()

__all__ = ["application"]
