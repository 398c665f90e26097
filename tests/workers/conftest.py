"""Real Celery workers for the tests of this folder: subprocesses on a queue of their own.

A test asks the ``workers`` fixture for one or more workers (``workers.start()``); each is
``celery -A tests.workers.app worker -P solo`` consuming a queue unique to the test, connected to
the pytest test database (the tests are transactional, so what they write is committed and the
worker sees it) and to ``REDIS_URL``. The test process sends its tasks to the same queue. At
teardown every worker still alive is stopped by its PID and the queue is deleted.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from server.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
READY_SECONDS = 30
# wait_for's bounds are safety nets, not budgets: it waits up to this many times the bound.
PATIENCE = 4
# The Redis transport options that tests/workers/app.py points at keys of the queue.
UNACKED_KEYS = ("unacked_key", "unacked_index_key", "unacked_mutex_key")

full_stack = pytest.mark.skipif(
    not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (the CI run sets both)",
)


def wait_for(condition: Callable[[], Any], *, seconds: float, what: str) -> Any:
    """Poll ``condition`` until it returns something true; fail naming ``what`` when too late.

    ``seconds`` is what it takes on a quiet machine; the wait gives up only after ``PATIENCE``
    times that, so a loaded CI machine (a worker starting in 40 s, not 5) still passes.
    """
    deadline = time.monotonic() + seconds * PATIENCE
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds * PATIENCE} s waiting for {what}")
        time.sleep(0.05)


def database_url_of_this_run() -> str:
    """A DATABASE_URL naming the database this test run writes to (``test_…``)."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    return f"postgres://{credentials}@{host}/{quote(db['NAME'], safe='')}"


class Worker:
    """One worker process; its log (stdout and stderr) goes to a file."""

    def __init__(self, process: subprocess.Popen[bytes], log: Path) -> None:
        self.process, self.log = process, log

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def succeeded(self, task: str) -> list[str]:
        """The ids of the ``task`` runs this worker finished (from its log)."""
        return self._task_ids(task, "] succeeded in ")

    def received(self, task: str) -> list[str]:
        """The ids of the ``task`` runs this worker took from the broker (from its log)."""
        return self._task_ids(task, "] received")

    def _task_ids(self, task: str, outcome: str) -> list[str]:
        """The ids in this worker's log lines ``Task <task>[<id>]…`` that contain ``outcome``."""
        marker = f"Task {task}["
        return [
            line.split(marker, 1)[1].split("]", 1)[0]
            for line in self.output().splitlines()
            if marker in line and outcome in line
        ]

    def wait_ready(self) -> None:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker exited at start:\n{self.output()}")
            return " ready." in self.output()

        wait_for(ready, seconds=READY_SECONDS, what="the worker to be ready")

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: no clean-up, no acknowledgement."""
        os.kill(self.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.kill(self.pid, signal.SIGTERM)  # warm shutdown: finish the current task
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(self.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


class Workers:
    """Starts workers on the test's private queue and remembers them for the teardown."""

    def __init__(self, queue: str, folder: Path) -> None:
        self.queue, self.folder = queue, folder
        self.started: list[Worker] = []

    def start(
        self,
        *,
        include: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
        pool: tuple[str, ...] = ("-P", "solo"),
        wait: bool = True,
    ) -> Worker:
        """A worker started and, with ``wait``, ready; ``pool``: its pool options (compose's
        workers run ``-P prefork -c 2``)."""
        number = len(self.started) + 1
        command = [
            sys.executable, "-m", "celery", "-A", "tests.workers.app", "worker", *pool,
            "-Q", self.queue, "-n", f"{self.queue}-{number}@%h", "-l", "INFO",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        for module in include:
            command += ["-I", module]
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url_of_this_run(),
            "REDIS_URL": str(settings.REDIS_URL),
            "MATCH_EVENT_PACE_MS": "0",
            "WORKER_TEST_QUEUE": self.queue,
            **(env or {}),
        }
        log = self.folder / f"worker-{number}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                command, cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT
            )
        worker = Worker(process, log)
        self.started.append(worker)
        if wait:
            worker.wait_ready()
        return worker

    def stop_all(self) -> None:
        for worker in self.started:
            worker.stop()


def _forget_queue(queue: str) -> None:
    """Delete every Redis key of the queue: its messages, bindings and unacknowledged index."""
    unacked = [f"{queue}.{name}" for name in UNACKED_KEYS]
    bindings = (f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
    with celery_app.connection_for_write() as conn:
        channel: Any = conn.default_channel  # kombu's Redis channel
        channel.queue_purge(queue)
        channel.client.delete(queue, *unacked, *bindings)


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[Workers]:
    """Real worker processes on a private queue (stopped before the database is flushed)."""
    queue = f"tests-workers-{secrets.token_hex(4)}"
    settings.TASK_RUNNER = "celery"
    assert not celery_app.conf.task_always_eager, "real_worker tests send tasks to the broker"
    saved = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()
        celery_app.conf.task_default_queue = saved
        _forget_queue(queue)
