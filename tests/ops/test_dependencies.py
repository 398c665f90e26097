"""A dependency lost and regained is logged and counted as it happens, in a web process and a
worker alike: a Daphne and a Celery worker run on a PostgreSQL and a Redis of the test's own
(``scripts/private_services.py``, never the machine's), which the test stops and starts under
them. Nothing scrapes ``/metrics`` until the end, so no scrape-time figure reports the changes:
the processes saw them at work (a request, the worker's clock, a task sent, a cache call)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import private_services  # noqa: E402
import stack  # noqa: E402

# Generous bounds for waiting on events (a loaded two-core machine); each wait ends at the event.
SECONDS = 60


def _why_not() -> str | None:
    full_stack = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not (full_stack and os.environ.get("REDIS_URL")):
        return "a full-stack test (the CI run sets DATABASE_URL and REDIS_URL)"
    return private_services.available()


pytestmark = [
    pytest.mark.real_worker,
    pytest.mark.timeout(900),
    pytest.mark.skipif(_why_not() is not None, reason=str(_why_not())),
]


class Running:
    """The private services and the processes on them."""

    def __init__(self, folder: Path) -> None:
        self.postgres = private_services.PrivatePostgres(folder / "postgres")
        self.redis = private_services.PrivateRedis(folder / "redis")
        self.logs = folder / "logs"
        self.port = stack.free_port()
        self.metrics_dir = folder / "metrics"

    def get(self, path: str) -> int:
        """The status of ``GET path`` on the Daphne."""
        url = f"http://127.0.0.1:{self.port}{path}"
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                return int(answer.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    def changes(self, service: str) -> list[tuple[str, str]]:
        """``(event, dependency)`` of each dependency line ``service`` logged, in order."""
        lines = (self.logs / f"{service}.log").read_text(errors="replace").splitlines()
        parsed = [_json(line) for line in lines]
        return [
            (line["event"], line["dependency"])
            for line in parsed
            if line.get("event", "").startswith("dependency_")
        ]

    def wait_for(self, service: str, change: tuple[str, str], count: int = 1) -> None:
        stack.wait_until(
            lambda: self.changes(service).count(change) >= count,
            seconds=SECONDS,
            what=f"{service} logs {change}",
        )


def _json(line: str) -> dict[str, Any]:
    try:
        loaded = json.loads(line)
    except ValueError:  # a line of the server's own (Daphne's start), not the app's
        return {}
    return loaded if isinstance(loaded, dict) else {}


@pytest.fixture
def running() -> Iterator[Running]:
    folder = Path(tempfile.mkdtemp(prefix="dependencies-"))
    folder.chmod(0o755)  # PostgreSQL runs as its own user, its data in a folder below this one
    run = Running(folder)
    run.logs.mkdir()
    run.metrics_dir.mkdir()
    try:
        run.postgres.create()
        run.postgres.start()
        run.redis.start()
        env = stack.stack_environment(
            run.postgres.url,
            run.redis.url,
            LOG_FORMAT="json",
            PROMETHEUS_MULTIPROC_DIR=str(run.metrics_dir),
            RECONCILE_INTERVAL_SECONDS="1",
            DATABASE_POOL_TIMEOUT="2",
        )
        stack.prepare_database(env)
        processes = stack.Stack(env, run.logs)
        processes.add_daphne("web", run.port)
        processes.add_worker("worker", concurrency=1)
        with stack.running(processes):
            yield run
    finally:
        run.redis.stop()
        run.postgres.stop("immediate")
        run.postgres.kill()
        shutil.rmtree(folder, ignore_errors=True)


def test_processes_log_and_count_a_dependency_lost_and_regained_as_it_happens(
    running: Running,
) -> None:
    assert running.get("/api/v1/tournaments/") == 200

    running.postgres.stop()
    assert running.get("/api/v1/tournaments/") == 503  # database_unavailable
    running.wait_for("web", ("dependency_lost", "database"))
    running.wait_for("worker", ("dependency_lost", "database"))  # its clock's heartbeat

    running.postgres.start()
    stack.wait_until(
        lambda: running.get("/api/v1/tournaments/") == 200, seconds=SECONDS, what="web back"
    )
    running.wait_for("web", ("dependency_regained", "database"))
    running.wait_for("worker", ("dependency_regained", "database"))

    running.redis.stop()
    assert running.get("/api/v1/cards/") == 200  # a cached read: a cache miss, not an error
    running.wait_for("web", ("dependency_lost", "redis"))
    running.wait_for("worker", ("dependency_lost", "redis"))  # the reconciler's broker probe

    running.redis.start()
    stack.wait_until(
        lambda: (
            running.get("/api/v1/cards/") == 200
            and ("dependency_regained", "redis") in running.changes("web")
        ),
        seconds=SECONDS,
        what="web sees Redis again",
    )

    # Once per change in each process: no line repeats while nothing changes.
    assert running.changes("web") == [
        ("dependency_lost", "database"),
        ("dependency_regained", "database"),
        ("dependency_lost", "redis"),
        ("dependency_regained", "redis"),
    ]
    scraped = scrape(running)
    assert scraped[("database", "lost")] >= 2  # the web process's and the worker's
    assert scraped[("database", "regained")] >= 2
    assert scraped[("redis", "lost")] >= 2
    assert scraped[("redis", "regained")] >= 1


def scrape(running: Running) -> dict[tuple[str, str], float]:
    """``challengers_dependency_changes_total`` of every process (the multiprocess directory)."""
    from prometheus_client.parser import text_string_to_metric_families

    url = f"http://127.0.0.1:{running.port}/metrics"
    with urllib.request.urlopen(url, timeout=30) as answer:
        text = answer.read().decode()
    return {
        (sample.labels["dependency"], sample.labels["change"]): sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "challengers_dependency_changes"
        for sample in family.samples
        if sample.name.endswith("_total")
    }
