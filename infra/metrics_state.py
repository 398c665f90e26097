"""Figures of the server's machinery, read at scrape time: task queue, signs of life."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import redis
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from infra import observe
from infra.dbpool import select_one
from infra.metrics import PREFIX

log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 1.0
# One short wait for a pooled connection per scrape: with PostgreSQL down the scrape answers in
# about this long, instead of each collector waiting the requests' DATABASE_POOL_TIMEOUT.
DATABASE_WAIT_SECONDS = 0.5
_database_answers: ContextVar[bool] = ContextVar("database_answers", default=True)


@contextmanager
def scraping() -> Iterator[None]:
    """A scrape, which probes the database once.

    ``database_answers()`` tells every collector what the probe found. Collectors that read the
    database skip their families when it does not answer."""
    answers = _probe_database()
    token = _database_answers.set(answers)
    try:
        yield
    finally:
        _database_answers.reset(token)


def database_answers() -> bool:
    """Whether this scrape's probe found the database answering."""
    return _database_answers.get()


def _probe_database() -> bool:
    try:
        select_one(DATABASE_WAIT_SECONDS)
    except Exception:  # any failure means "does not answer"; the log says why
        log.warning("Metrics: the database does not answer", exc_info=True)
        observe.dependency_seen("database", False)
        return False
    return True


class QueueCollector(Collector):
    """Tasks waiting in the broker's queue (Redis ``LLEN``), and heartbeat ages.

    For each role, the age is that of its freshest heartbeat (``infra.liveness``). A missing
    worker or beat makes it grow."""

    def collect(self) -> Iterable[Metric]:
        yield from self._queue()
        yield from self._heartbeats()

    def _queue(self) -> Iterable[Metric]:
        family = GaugeMetricFamily(
            f"{PREFIX}_task_queue_length", "Tasks waiting in the broker's queue.", labels=["queue"]
        )
        queue = _queue_name()
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            length = _queue_length(queue)
            if length is not None:
                family.add_metric([queue], length)
        else:
            family.add_metric([queue], 0)  # no broker: tasks run in the caller, nothing waits
        yield family

    def _heartbeats(self) -> Iterable[Metric]:
        from infra.liveness import BEAT, WORKER, heartbeats

        family = GaugeMetricFamily(
            f"{PREFIX}_heartbeat_age_seconds",
            "Seconds since the freshest heartbeat of a worker (or of beat) was written.",
            labels=["role"],
        )
        if not database_answers():
            return
        now = timezone.now()
        try:
            seen = {role: heartbeats(role=role) for role in (WORKER, BEAT)}
        except DatabaseError:
            log.warning("Metrics: the database does not answer", exc_info=True)
            return
        for role, beats in seen.items():
            if beats:
                family.add_metric([role], (now - beats[0][1]).total_seconds())
        yield family


def _queue_name() -> str:
    return str(getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"))


def _queue_length(queue: str) -> int | None:
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_timeout=TIMEOUT_SECONDS,
        socket_connect_timeout=TIMEOUT_SECONDS,
    )
    try:
        length = int(client.llen(queue))
    except redis.RedisError:
        log.warning("Metrics: the broker does not answer", exc_info=True)
        observe.dependency_seen("redis", False)
        return None
    finally:
        client.close()
    observe.dependency_seen("redis", True)
    return length
