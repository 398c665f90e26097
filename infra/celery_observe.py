"""Celery's signals, observed: task counts, latency, retries and failures, and the log context.

They are connected when Django starts (``infra.apps``). So every process that runs or queues tasks
reports through them. Those are web servers, workers and the embedded server. On a prefork worker,
each pool process counts into its own files under ``PROMETHEUS_MULTIPROC_DIR``. A process that exits
is marked dead, so its live gauges stop counting. This follows prometheus_client's multiprocess
instructions.
"""

from __future__ import annotations

import time
from contextvars import Token
from typing import Any

from celery import signals
from prometheus_client import multiprocess

from infra import logcontext, metrics, observe

_started: dict[str, tuple[float, dict[str, Token[Any]]]] = {}


@signals.before_task_publish.connect
def carry_ids(headers: dict[str, object] | None = None, **_: object) -> None:
    """Pass the publisher's request and tournament ids to the queued task."""
    if headers is not None:
        headers.update(logcontext.headers_to_send())


@signals.task_prerun.connect
def task_started(task_id: str = "", task: object = None, **_: object) -> None:
    request = getattr(task, "request", None)
    headers = {key: request.get(key) for key in _header_keys()} if request is not None else {}
    # An eager task runs inside its caller: it keeps the caller's ids (no message carried them).
    carried = {k: v for k, v in logcontext.ids_received(headers).items() if v is not None}
    _started[task_id] = (time.perf_counter(), logcontext.bind(**carried, task_id=task_id))


def _header_keys() -> list[str]:
    return [f"{logcontext.HEADER_PREFIX}{name}" for name in logcontext.CARRIED]


@signals.task_postrun.connect
def task_finished(
    task_id: str = "", task: object = None, state: str | None = None, **_: object
) -> None:
    started = _started.pop(task_id, None)
    name = getattr(task, "name", "unknown")
    metrics.TASKS.labels(name, state or "UNKNOWN").inc()
    if started is not None:
        metrics.TASK_LATENCY.labels(name).observe(time.perf_counter() - started[0])
        logcontext.unbind(started[1])


@signals.task_retry.connect
def task_retried(sender: object = None, reason: object = None, **_: object) -> None:
    metrics.TASK_RETRIES.labels(getattr(sender, "name", "unknown")).inc()
    if isinstance(reason, BaseException):  # a database or broker error is retried
        observe.dependency_failed(reason)


@signals.task_failure.connect
def task_failed(
    sender: object = None,
    task_id: str | None = None,
    exception: BaseException | None = None,
    **_: object,
) -> None:
    error = exception if exception is not None else RuntimeError("unknown")
    observe.dependency_failed(error)
    observe.task_failed(task=getattr(sender, "name", "unknown"), task_id=task_id, error=error)


@signals.worker_process_shutdown.connect
def pool_process_gone(**_: object) -> None:
    """Stop an exiting pool process's live gauges (sent in that process)."""
    if metrics.multiprocess_dir():
        multiprocess.mark_process_dead(metrics.process_id())
