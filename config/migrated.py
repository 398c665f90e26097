"""A Celery worker waits for the database's migrations before it starts its work.

A worker started beside the first ``manage.py migrate`` (compose's ``init``, or ``serve`` on a
fresh database) would otherwise run its clock and its tasks against missing tables: a traceback
every tick until the migrations finish. It waits instead, saying so in one log line; a database
that does not answer yet is waited for the same way.
"""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError
from django.db.migrations.executor import MigrationExecutor

from config.dbpool import standalone_connection

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0


def pending_migrations() -> int | None:
    """How many migrations are still to apply; ``None`` when the database does not answer."""
    connection = standalone_connection()
    try:
        executor = MigrationExecutor(connection)
        return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return None
    finally:
        connection.close()


def wait_for_migrations(*, poll: float = POLL_SECONDS) -> None:
    """Return once every migration is applied; log one line if that means waiting."""
    said = False
    while (pending := pending_migrations()) != 0:
        if not said:
            why = "does not answer" if pending is None else f"has {pending} migrations to apply"
            log.warning("Waiting for the database before starting: it %s.", why)
            said = True
        time.sleep(poll)
