"""Queueing tasks the same way on every stack.

``enqueue`` hands a task to this stack's runner. On the full stack (``TASK_RUNNER = "celery"``)
it goes to Celery's broker. In tests, eager Celery runs it at once. On the embedded server
(``"thread"``) a worker thread runs it. That thread keeps countdowns. So deadlines and answer
timeouts fire on time without a separate worker process. Call it from ``transaction.on_commit``:
a task must never see uncommitted rows.

Sending never raises after a commit. A broker that does not answer is logged. The reconciler
(``tournaments.services.reconcile``) then derives the work again from the rows.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import threading
import time
from importlib import import_module
from typing import Any, TypedDict

import kombu.exceptions
import redis
import redis.exceptions
from celery import Task
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections

from infra import observe

log = logging.getLogger(__name__)

BROKER_ERRORS: tuple[type[Exception], ...] = (
    kombu.exceptions.OperationalError,
    redis.exceptions.RedisError,
    OSError,
)
"""What sending a task raises while Redis does not answer."""

DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
"""What a query raises while PostgreSQL does not answer (or dropped the connection)."""

RETRIED_ERRORS = DATABASE_ERRORS + BROKER_ERRORS

RETRY_OPTIONS: dict[str, Any] = {
    "autoretry_for": RETRIED_ERRORS,
    "retry_backoff": 1,
    "retry_backoff_max": 8,
    "max_retries": 8,
}
"""Every task's ``shared_task`` options: a database or broker error is retried 1, 2, 4, 8, 8… s
later (with jitter), about a minute in all; after that the reconciler re-drives the work. Every
task is idempotent, so a retry of a task that had in fact committed changes nothing."""


def enqueue(task: Task, *args: object, countdown: float = 0) -> bool:
    """Run ``task(*args)`` in ``countdown`` seconds on this stack's task runner.

    On the full stack, a short countdown is sent with the task. Short means under half the
    visibility timeout. A longer task is not sent at all. The periodic sweep enforces every passed
    deadline and releases every due match instead. That sweep is
    ``tournaments.tasks.sweep_deadlines``, run by Celery beat. Why not send long delays? The Redis
    transport delivers a waiting task again each visibility timeout. That is how a dead worker's
    task comes back. For a long wait it is wasteful. Every delayed task checks that its moment has
    come. An early or repeated delivery does nothing.

    ``False`` when the broker did not take the task. This is logged, never raised. The caller's
    state has committed, and the reconciler will see the work still owed.
    """
    if settings.TASK_RUNNER == "thread":
        _runner().schedule(task, args, countdown)
        return True
    if countdown >= settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] / 2:
        return True
    if task.app.conf.task_always_eager:  # in-process (tests): the task's errors are the caller's
        task.apply_async(args)
        return True
    try:
        if countdown > 0:
            task.apply_async(args, countdown=countdown)
        else:
            task.apply_async(args)
    except BROKER_ERRORS:
        observe.dependency_seen(observe.REDIS, False)
        log.warning("Task %s%r not sent (broker down): left to the reconciler", task.name, args)
        return False
    observe.dependency_seen(observe.REDIS, True)
    return True


BROKER_MARK = "challengers:broker-mark"
"""A key the reconciler keeps in the broker's Redis database: it lives and dies with the queued
messages, so finding it gone means the broker lost them (``broker_emptied``)."""
BROKER_PROBE_SECONDS = 2


def broker_emptied() -> bool:
    """Whether the broker lost what it held since the last call.

    That is a Redis restarted without persistence, or flushed, seen by any process. The call sets
    the mark again, so only one caller learns it, once.

    Everything queued before is gone then. That means the tasks sent, their countdowns, and the
    unacknowledged ones the workers were running. Celery's workers exit on such a restart and come
    back under their supervisor. So the reconciler queues all owed work at once. It does not wait
    ``RECONCILE_REQUEUE_SECONDS`` for each piece. ``False`` without a Redis broker. Also ``False``
    while the broker does not answer; the next pass asks again."""
    if settings.TASK_RUNNER != "celery" or settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    try:
        emptied = bool(_broker_client(settings.CELERY_BROKER_URL).set(BROKER_MARK, "1", nx=True))
    except BROKER_ERRORS:
        observe.dependency_seen(observe.REDIS, False)
        return False
    observe.dependency_seen(observe.REDIS, True)
    return emptied


@functools.cache
def _broker_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_timeout=BROKER_PROBE_SECONDS, socket_connect_timeout=BROKER_PROBE_SECONDS
    )


def enqueue_named(name: str, *args: object, countdown: float = 0) -> bool:
    """``enqueue`` the task ``"module.function"``; services need not import it."""
    module, _, function = name.rpartition(".")
    return enqueue(getattr(import_module(module), function), *args, countdown=countdown)


class ThreadRunner:
    """One daemon thread running due tasks in order; a heap keeps them by due time."""

    def __init__(self) -> None:
        self._queue: list[tuple[float, int, Task, tuple[Any, ...]]] = []
        self._order = itertools.count()
        self.generation = 0  # moves at each clear: beat entries from before it stop
        self._busy = False  # a task is running
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name="task-runner", daemon=True)
        self._thread.start()

    def schedule(self, task: Task, args: tuple[object, ...], countdown: float) -> None:
        with self._wake:
            due = time.monotonic() + max(countdown, 0)
            heapq.heappush(self._queue, (due, next(self._order), task, args))
            self._wake.notify()

    def alive(self) -> bool:
        return self._thread.is_alive()

    def clear(self) -> None:
        """Drop every task not yet started and wait for the running one to end.

        Tests end with a quiet runner this way."""
        with self._wake:
            self._queue.clear()
            self.generation += 1
            if threading.current_thread() is not self._thread:
                self._wake.wait_for(lambda: not self._busy)

    def _next(self) -> tuple[Task, tuple[object, ...]]:
        with self._wake:
            while True:
                wait = self._queue[0][0] - time.monotonic() if self._queue else None
                if wait is not None and wait <= 0:
                    _, _, task, args = heapq.heappop(self._queue)
                    self._busy = True
                    return task, args
                self._wake.wait(wait)

    def _loop(self) -> None:
        while True:
            task, args = self._next()
            try:
                task.apply(args=args, throw=True)
            except Exception:  # one failing task must not stop the runner
                log.exception("Task %s%r failed", task.name, args)
            finally:
                close_old_connections()
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()


_lock = threading.Lock()
_instance: ThreadRunner | None = None


def start_clock() -> None:
    """Run the beat schedule (the deadline sweep) on the embedded runner, every few seconds.

    This is the embedded server's stand-in for Celery beat. Deadlines and match releases are still
    enforced when their countdown was lost to a restart. The server's entry point
    (``server.serve``) starts it. No import the tests make does.
    """
    for entry in beat_schedule().values():
        every = _Every(entry["task"], entry["schedule"])
        _runner().schedule(every, (), 0)  # type: ignore[arg-type]


class BeatEntry(TypedDict):
    """A ``CELERY_BEAT_SCHEDULE`` entry: task's dotted name, period in seconds."""

    task: str
    schedule: float


def beat_schedule() -> dict[str, BeatEntry]:
    """``CELERY_BEAT_SCHEDULE`` as typed entries (settings hold plain dicts)."""
    return {
        name: BeatEntry(task=str(entry["task"]), schedule=float(entry["schedule"]))
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    }


class _Every:
    """A beat entry: a task that runs, then schedules itself again ``seconds`` later.

    ``clear_runner`` stops it. An entry started before the clear stays stopped.
    """

    def __init__(self, name: str, seconds: float) -> None:
        self.name, self.seconds = name, seconds
        self.generation = _runner().generation

    def apply(self, args: tuple[object, ...], throw: bool) -> None:
        module, _, function = self.name.rpartition(".")
        try:
            getattr(import_module(module), function).apply(args=args, throw=throw)
        finally:
            if _runner().generation == self.generation:
                _runner().schedule(self, (), self.seconds)  # type: ignore[arg-type]


def clear_runner() -> None:
    """Drop the embedded runner's pending tasks and wait for the running one.

    Does nothing if the runner has not started."""
    if _instance is not None:
        _instance.clear()


def runner_alive() -> bool | None:
    """Whether the embedded runner's thread lives (``None``: not started)."""
    return None if _instance is None else _instance.alive()


def _runner() -> ThreadRunner:
    global _instance
    with _lock:
        if _instance is None:
            _instance = ThreadRunner()
        return _instance
