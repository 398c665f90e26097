"""A Celery worker waits for its database's migrations before it starts its work.

A worker may start beside the first ``manage.py migrate``. Examples are compose's ``init``, a new
release's migrations, and ``serve`` on a fresh database. The worker would run its clock and tasks
against missing tables. Each tick would log a traceback until the migrations finish. It waits
instead. It waits in its main process, before the pool forks and before it takes a task. It logs a
line now and every ``REMIND_SECONDS``. The check reads the worker's configured database
(``DATABASE_URL``). It uses its own connection, outside the process's pool. That connection is
closed before the worker goes on. So nothing of it reaches the forked pool processes. A database
that does not answer is not awaited. The worker then starts as it always has: its tasks retry, and
its clock reports it.

The check's connection has an alias of its own; a wrapper alone is not enough. Django's migration
recorder reads ``django_migrations`` through ``connections[alias]``. A separate wrapper under the
alias ``default`` had it read through the process's pooled connection. That opened the pool in the
worker's main process. A task then hung in the pool's connection check. That was the withdrawn first
attempt's "workers take no task".
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
REMIND_SECONDS = 30.0
CHECK_ALIAS = "migrations_check"


@contextmanager
def standalone_connection() -> Iterator[BaseDatabaseWrapper]:
    """The configured database without the pool, under its own alias in this thread.

    The alias is ``connections[CHECK_ALIAS]``, not a setting, so ``connections.all()`` never lists
    it. The connection is closed and the alias gone after."""
    params = copy.deepcopy(connections.settings[DEFAULT_DB_ALIAS])
    params["OPTIONS"] = {k: v for k, v in params.get("OPTIONS", {}).items() if k != "pool"}
    wrapper: BaseDatabaseWrapper = load_backend(params["ENGINE"]).DatabaseWrapper(
        params, CHECK_ALIAS
    )
    connections[CHECK_ALIAS] = wrapper
    try:
        yield wrapper
    finally:
        wrapper.close()
        del connections[CHECK_ALIAS]


def pending_migrations() -> int | None:
    """How many migrations the database lacks; ``None`` when it does not answer."""
    with standalone_connection() as connection:
        try:
            executor = MigrationExecutor(connection)
            return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
        except DatabaseError:
            return None


def wait_for_migrations(*, poll: float = POLL_SECONDS, remind: float = REMIND_SECONDS) -> None:
    """Return once every migration is applied, or the database does not answer.

    Logs a line when the wait starts, every ``remind`` seconds, and at its end."""
    began = said = time.monotonic()
    pending = pending_migrations()
    if not pending:
        return
    name = connections.settings[DEFAULT_DB_ALIAS]["NAME"]
    log.warning("Waiting for the migrations of database %s: %d to apply.", name, pending)
    while pending:
        time.sleep(poll)
        pending = pending_migrations()
        if pending and time.monotonic() - said >= remind:
            said = time.monotonic()
            log.warning("Still waiting for the migrations of database %s: %d.", name, pending)
    waited = time.monotonic() - began
    if pending is None:
        log.warning("Database %s does not answer: starting after %.0f s.", name, waited)
    else:
        log.info("Database %s migrated: starting after %.0f s.", name, waited)
