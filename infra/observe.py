"""The state changes an operator follows: one log event and one count each, after the commit.

The services call ``state_changed("match_recorded", tournament_id=…, match_id=…)`` at the change.
Once the transaction commits, it logs one line on the ``challengers.events`` logger. ``event``
and the ids are fields: a JSON line on the full stack. It also bumps the event's counter. A
change rolled back is neither logged nor counted.

``dependency_seen(name, ok)`` tracks a dependency: the database, or Redis. When it stops or
starts answering, this logs ``dependency_lost`` or ``dependency_regained``. That happens once per
change in this process. It also counts the change (``challengers_dependency_changes_total``,
``challengers_dependency_up``). It is called where the process meets the dependency, as it
happens:

- a query or connection that fails (``dependency_failed``: the 503 paths, a task's retry or
  failure, the worker's clock);
- a new database connection (``connection_created``);
- a task sent or not, and a cache call;
- the reconciler's broker probe, and the scrape-time figures.
"""

from __future__ import annotations

import logging
from functools import partial

import kombu.exceptions
import psycopg
import redis.exceptions
from django.db import DatabaseError, transaction

from infra import metrics

log = logging.getLogger("challengers.events")

TOURNAMENT_EVENTS = frozenset({"tournament_started", "tournament_finished", "tournament_cancelled"})
"""Event-log kinds that are tournament transitions (``tournaments.services.events`` reports)."""

_dependencies: dict[str, bool] = {}

DATABASE, REDIS = "database", "redis"
REDIS_ERRORS = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
)


def state_changed(event: str, **ids: object) -> None:
    """Log and count ``event`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_emit, event, ids))


def _emit(event: str, ids: dict[str, object]) -> None:
    if event == "match_recorded":
        metrics.MATCHES_RECORDED.inc()
    elif event == "match_released":
        metrics.MATCHES_RELEASED.inc()
    elif event in TOURNAMENT_EVENTS:
        metrics.TOURNAMENT_CHANGES.labels(event).inc()
    text = " ".join(f"{name}={value}" for name, value in ids.items())
    log.info("%s %s", event, text, extra={"event": event, **ids})


def tournament_logged(tournament_id: int, kinds: list[str]) -> None:
    """Report tournament transitions among ``kinds``, just logged for ``tournament_id``."""
    for kind in kinds:
        if kind in TOURNAMENT_EVENTS:
            state_changed(kind, tournament_id=tournament_id)


def task_failed(*, task: str, task_id: str | None, error: BaseException) -> None:
    metrics.TASK_FAILURES.labels(task).inc()
    log.error(
        "task_failed %s %s: %s",
        task,
        task_id,
        type(error).__name__,
        extra={
            "event": "task_failed",
            "task": task,
            "task_id": task_id,
            "error": type(error).__name__,
        },
    )


def dependency_seen(name: str, ok: bool) -> None:
    """Record whether ``name`` answered; log and count a change."""
    before = _dependencies.get(name)
    if before is ok:
        return
    _dependencies[name] = ok
    metrics.DEPENDENCY_UP.labels(name).set(1 if ok else 0)
    if before is None and ok:
        return  # first sight of a working dependency: nothing changed
    change = "regained" if ok else "lost"
    metrics.DEPENDENCY_CHANGES.labels(name, change).inc()
    event = f"dependency_{change}"
    level = logging.INFO if ok else logging.ERROR
    log.log(level, "%s %s", event, name, extra={"event": event, "dependency": name})


def dependency_of(error: BaseException) -> str | None:
    """Which dependency ``error`` says did not answer; ``None`` for another error.

    PostgreSQL's are psycopg's connection errors, which Django wraps. A pool timeout is one.
    SQLite's ``OperationalError`` mostly means a bad query, not an outage."""
    original = error.__cause__ if isinstance(error, DatabaseError) and error.__cause__ else error
    if isinstance(original, psycopg.OperationalError | psycopg.InterfaceError):
        return DATABASE
    if isinstance(error, REDIS_ERRORS):
        return REDIS
    return None


def dependency_failed(error: BaseException) -> None:
    """Record a dependency's loss if ``error``, raised asking it, says so."""
    if (name := dependency_of(error)) is not None:
        dependency_seen(name, False)


def connection_created(**_: object) -> None:
    """Django's ``connection_created``: the database accepted a new connection."""
    dependency_seen(DATABASE, True)
