"""The Celery app: `celery -A server worker` runs the tasks of every installed app."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Protocol

from celery import Celery, signals
from celery import __version__ as celery_version

if TYPE_CHECKING:
    from celery.worker import WorkController

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("challengers")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping", ignore_result=False)
def ping() -> str:
    """A no-op: ``scripts/bench_anchors.py`` times its round trip through the broker."""
    return "pong"


@signals.task_prerun.connect
@signals.task_postrun.connect
def connections_back_to_pool(sender: object = None, **_: object) -> None:
    """Return connections to the pool around each task, as Django does around each request.

    A broken connection, or one past its age, goes back. With ``CONN_MAX_AGE = 0``, every one does.
    The pool keeps it open for the next task. ``CELERY_DB_REUSE_MAX`` stops Celery closing the
    whole pool."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in the caller's process and maybe inside its transaction: leave it alone
    from django.db import close_old_connections

    close_old_connections()


@signals.worker_ready.connect
def clock_start(sender: object = None, **_: object) -> None:
    """Start the worker's clock (``infra.liveness``): its heartbeat and the reconciler.

    They run at once and every few seconds, whether or not Celery beat runs."""
    import logging

    from infra.liveness import worker_clock_start
    from infra.logfilters import QuietClock

    # Celery replaces the root logger's handlers in a worker: the success line of the reconciler
    # (every two seconds) is dropped at its logger instead.
    logging.getLogger("celery.app.trace").addFilter(QuietClock())
    worker_clock_start(getattr(sender, "hostname", None) or "worker")


@signals.celeryd_init.connect
def log_through_settings(**_: object) -> None:
    """Send the worker's first lines through ``LOGGING`` too.

    Those are its start checks' warnings. Django's setup, which applies ``LOGGING``, comes
    later."""
    from infra.logformat import configure_from_settings

    configure_from_settings()


@signals.celeryd_after_setup.connect
def log_start(sender: object = None, instance: WorkController | None = None, **_: object) -> None:
    """One log line for the banner that ``--quiet`` leaves out: the node, pool and queues.

    Compose runs the workers quiet, since the banner is text, not a log line."""
    import logging

    queues = ",".join(sorted(instance.app.amqp.queues)) if instance is not None else ""
    pool = getattr(getattr(instance, "pool_cls", None), "__module__", "").rpartition(".")[2]
    logging.getLogger("celery.apps.worker").info(
        "%s starting: %s pool, concurrency %s, queues %s, Celery %s",
        sender,
        pool,
        getattr(instance, "concurrency", ""),
        queues,
        celery_version,
    )


@signals.celeryd_after_setup.connect
def migrations_first(**_: object) -> None:
    """Wait for the database's migrations (``infra.migrated``) in a worker program.

    It waits before its pool forks and takes tasks. A worker embedded in a process (a test's) does
    not wait."""
    from infra.migrated import wait_for_migrations

    wait_for_migrations()


@signals.worker_ready.connect
def quiet_warm_shutdown(sender: object = None, **_: object) -> None:
    """Announce SIGTERM's and SIGINT's warm shutdown by log lines.

    ``log_shutdown`` and ``_on_sigint`` replace Celery's text lines on standard output."""
    from celery.apps.worker import (  # type: ignore[attr-defined]
        install_worker_int_handler,
        install_worker_term_handler,
    )

    worker = getattr(sender, "controller", None)
    if worker is not None:
        install_worker_term_handler(worker, verbose=False)
        install_worker_int_handler(worker, callback=_on_sigint, verbose=False)


class _Named(Protocol):
    hostname: str


def _on_sigint(worker: _Named) -> None:
    """Celery's ``on_SIGINT``, its notice a log line.

    A second SIGINT is a cold shutdown."""
    import logging

    from celery.apps.worker import install_worker_term_hard_handler  # type: ignore[attr-defined]

    logging.getLogger("celery.apps.worker").info(
        "%s: SIGINT again starts a cold shutdown (running tasks terminated)", worker.hostname
    )
    install_worker_term_hard_handler(worker, sig="SIGINT", verbose=False)


@signals.worker_shutting_down.connect
def log_shutdown(sender: object = None, sig: str = "", how: str = "", **_: object) -> None:
    import logging

    logging.getLogger("celery.apps.worker").info("%s: %s shutdown (%s)", sender, how, sig)


@signals.beat_init.connect
def beat_heartbeat_file(**_: object) -> None:
    """In Celery beat, touch ``HEARTBEAT_FILE`` after each task the broker took.

    The container's light health check reads it."""
    signals.after_task_publish.connect(_touch_heartbeat_file, weak=False)


def _touch_heartbeat_file(**_: object) -> None:
    from infra.liveness import heartbeat_file_touch

    heartbeat_file_touch()


@signals.worker_shutdown.connect
def clock_stop(**_: object) -> None:
    from infra.liveness import worker_clock_stop

    worker_clock_stop()


PRELOADED = (
    "tournaments.services.deck",
    "tournaments.services.matchplay",
    "tournaments.services.clock",
    "tournaments.selectors.tournaments",
    "leagues.services.recording",
    "tournaments.services.reconcile",
)
"""What the tasks import in their bodies (services, the selectors they call, the engine)."""


@signals.worker_init.connect
def preload(**_: object) -> None:
    """Import what the tasks run, once, in the worker's main process before its pool forks.

    Otherwise a fresh pool process's first tasks would pay for the imports. That was ~0.1 s of
    latency on the first matches' events."""
    from importlib import import_module

    for name in PRELOADED:
        import_module(name)


WORKER_POOL_TIMEOUT_SECONDS = 10
"""How long a task waits for a database connection. Web requests wait
``DATABASE_POOL_TIMEOUT`` (3 s) and answer 503; a task has nobody waiting on it, so it rides out
a PostgreSQL restart and goes on as soon as the server is back, rather than failing and sleeping
out its retry backoff (up to 8 s more)."""


@signals.worker_init.connect
def task_pool_wait(**_: object) -> None:
    """Give the worker's database pool the tasks' wait, before its pool processes fork.

    They create their connection pools from these settings."""
    from django.conf import settings

    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        pool["timeout"] = max(pool.get("timeout", 0), WORKER_POOL_TIMEOUT_SECONDS)
