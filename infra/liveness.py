"""Signs of life, and periodic jobs that need no single scheduler.

Every Celery worker runs a **clock**. It is a daemon thread of the worker's main process, started
when the worker is ready. Every ``RECONCILE_INTERVAL_SECONDS`` it writes the worker's heartbeat.
Then it runs each ``CELERY_BEAT_SCHEDULE`` entry in the thread itself. A lease guards each
entry, so an entry runs once per period. That holds however many workers run, and with Celery
beat sending the same tasks. Beat is therefore a convenience, not a single point of failure.
With beat dead the workers' clocks go on reconciling, and ``/api/v1/health/`` reports the
silence.

Heartbeats and leases live in the database. So they survive a Redis outage. A broker being down must
not make the workers look dead. They need nothing else to be up.
"""

from __future__ import annotations

import copy
import logging
import threading
from datetime import datetime, timedelta
from importlib import import_module
from pathlib import Path

from django.conf import settings
from django.db import (
    DEFAULT_DB_ALIAS,
    IntegrityError,
    close_old_connections,
    connections,
    transaction,
)
from django.db.utils import load_backend
from django.utils import timezone

from infra import observe
from infra.models import Heartbeat, Lease
from infra.taskqueue import BeatEntry, beat_schedule

log = logging.getLogger(__name__)

BEAT = "beat"
WORKER = "worker"
FORGOTTEN_AFTER = timedelta(days=1)
"""A process silent this long is forgotten (a restarted container comes back under a new name)."""


def heartbeat_write(*, name: str, role: str) -> None:
    """Record that ``name`` (a worker's hostname, or ``beat``) is alive now."""
    now = timezone.now()
    if not Heartbeat.objects.filter(name=name).update(role=role, seen_at=now):
        try:
            with transaction.atomic():
                Heartbeat.objects.create(name=name, role=role, seen_at=now)
        except IntegrityError:  # another process wrote it first: it is alive either way
            Heartbeat.objects.filter(name=name).update(role=role, seen_at=now)


def heartbeats(*, role: str) -> list[tuple[str, datetime]]:
    """Each remembered ``role`` process and its last beat, freshest first."""
    rows = Heartbeat.objects.filter(role=role).order_by("-seen_at")
    return list(rows.values_list("name", "seen_at"))


def heartbeat_file_touch() -> None:
    """Touch ``HEARTBEAT_FILE``, if set.

    A container's health check reads its age without starting Django
    (``deploy/healthcheck.py --fresh``)."""
    if settings.HEARTBEAT_FILE:
        Path(settings.HEARTBEAT_FILE).touch()


def is_alive(seen_at: datetime, now: datetime) -> bool:
    """Whether a heartbeat at ``seen_at`` is recent (``HEARTBEAT_STALE_SECONDS``)."""
    return now - seen_at <= timedelta(seconds=settings.HEARTBEAT_STALE_SECONDS)


def lease_claim(*, name: str, seconds: float, holder: str) -> bool:
    """Take the job ``name`` for ``seconds`` if nobody holds it now; ``True`` if taken.

    It is a conditional ``UPDATE … WHERE until <= now``. Two processes asking at once cannot both
    win. The database serialises them; the loser's update matches no row.
    """
    now = timezone.now()
    until = now + timedelta(seconds=seconds)
    free = Lease.objects.filter(name=name, until__lte=now)
    if free.update(holder=holder, until=until):
        return True
    if Lease.objects.filter(name=name).exists():
        return False
    try:
        with transaction.atomic():
            Lease.objects.create(name=name, holder=holder, until=until)
    except IntegrityError:  # created by another process just now: theirs
        return False
    return True


class WorkerClock:
    """One worker process's clock thread (see the module's docstring)."""

    def __init__(self, hostname: str) -> None:
        self.hostname = hostname
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="worker-clock", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        own_connection()
        # The first tick at once: a worker that starts (or restarts) re-drives what is owed.
        while True:
            try:
                self.tick()
            except Exception as error:  # a database outage: the next tick tries again
                observe.dependency_failed(error)
                log.exception("Worker clock: tick failed")
            finally:
                close_old_connections()
            if self._stop.wait(settings.RECONCILE_INTERVAL_SECONDS):
                return

    def tick(self) -> None:
        heartbeat_write(name=self.hostname, role=WORKER)
        heartbeat_file_touch()
        observe.dependency_seen(observe.DATABASE, True)
        Heartbeat.objects.filter(seen_at__lt=timezone.now() - FORGOTTEN_AFTER).delete()
        for entry_name, entry in beat_schedule().items():
            if lease_claim(name=entry_name, seconds=_lease_seconds(entry), holder=self.hostname):
                run_entry(entry)


def own_connection() -> None:
    """Give this thread its own database connection, outside the process's pool.

    The clock runs in a prefork worker's main process. It forks a new pool process whenever one
    dies. The child would inherit a pool created here. It would then share the pool's sockets with
    this process. A plain connection held by this thread is safe. The child cannot reach it, and
    psycopg never closes a connection from a process that did not open it. The connection is kept
    for a minute between ticks, not opened every tick.
    """
    params = copy.deepcopy(connections.settings[DEFAULT_DB_ALIAS])
    params["OPTIONS"] = {k: v for k, v in params.get("OPTIONS", {}).items() if k != "pool"}
    params["CONN_MAX_AGE"] = 60
    backend = load_backend(params["ENGINE"])
    connections[DEFAULT_DB_ALIAS] = backend.DatabaseWrapper(params, DEFAULT_DB_ALIAS)


def _lease_seconds(entry: BeatEntry) -> float:
    """A little under the entry's period, so the next period's first asker wins it again."""
    return entry["schedule"] * 0.9


def run_entry(entry: BeatEntry) -> None:
    """Run one beat entry's task now, in this thread (``apply``, not the broker)."""
    module, _, function = entry["task"].rpartition(".")
    task = getattr(import_module(module), function)
    task.apply(kwargs={"source": "clock"}, throw=True)


def beat_turn(name: str) -> bool:
    """Handle a task sent by Celery beat or the embedded server's clock.

    Record that beat lives, and take the entry's lease. ``True`` if this period's run is ours,
    meaning no worker clock ran it."""
    heartbeat_write(name=BEAT, role=BEAT)
    entry = beat_schedule()[name]
    return lease_claim(name=name, seconds=_lease_seconds(entry), holder=BEAT)


_clock: WorkerClock | None = None


def worker_clock_start(hostname: str) -> None:
    """Start this worker process's clock (once)."""
    global _clock
    if _clock is None and settings.WORKER_CLOCK:
        _clock = WorkerClock(hostname)
        _clock.start()


def worker_clock_stop() -> None:
    if _clock is not None:
        _clock.stop()
