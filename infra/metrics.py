"""The server's Prometheus metrics: every family in one place, and the text of a scrape.

Processes count into prometheus_client's metrics. ``PROMETHEUS_MULTIPROC_DIR`` may name a directory
shared on the host. It is set on the full stack, for gunicorn's workers, Daphne and the Celery pool.
Then each process writes its values to files there. Scraping any web process adds them all up. This
is the library's documented multiprocess mode. So the workers' task figures show up at ``/metrics``
without a server of their own. Without the directory, one process holds them (the embedded server,
tests).

Some figures are a state rather than a count. Examples are tournaments by status, stuck tournaments,
the queue's length and heartbeat ages. The collectors named in ``settings.METRICS_COLLECTORS``
compute them at scrape time. They are import strings, so ``config`` imports no app.

Names are the contract of the alert rules and the dashboard under ``deploy/``. A test checks that
each name they use exists.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from functools import cache

from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector


def process_id() -> str:
    """Name this process's files in the shared directory: host and pid.

    The pid alone would collide: the full stack's containers each number their processes from 1."""
    return f"{socket.gethostname()}_{os.getpid()}"


def multiprocess_dir() -> str | None:
    """The directory this host's processes share values in, if any."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def _forget_an_unusable_dir() -> None:
    """Drop a ``PROMETHEUS_MULTIPROC_DIR`` this process cannot write in, with a warning.

    The directory may be missing. It may be a volume owned by root while the process is not. Then
    prometheus_client raised at the first metric. That stopped every Django process at import.
    Now this process counts alone, and the server runs. A scrape then shows its own figures only."""
    folder = multiprocess_dir()
    if folder is None or (os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)):
        return
    del os.environ["PROMETHEUS_MULTIPROC_DIR"]  # prometheus_client reads it at each metric
    values.ValueClass = values.MutexValue
    logging.getLogger(__name__).warning(
        "PROMETHEUS_MULTIPROC_DIR %s is not a directory this process can write in (uid %s): "
        "metrics of this process only",
        folder,
        os.getuid(),
        extra={"event": "metrics_dir_unusable", "path": folder},
    )


_forget_an_unusable_dir()
if multiprocess_dir():
    # Before any metric is made (values.MultiProcessValue's documented process_identifier); a
    # restarted process under the same name starts with no open sockets of its last life.
    multiprocess.mark_process_dead(process_id())
    values.ValueClass = values.MultiProcessValue(process_id)

PREFIX = "challengers"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Seconds. Requests and tasks of this server take milliseconds to a few seconds.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# Stream lag: from an event's release (stored, or its paced ``visible_at``) to its frame sent.
LAG_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    f"{PREFIX}_http_requests",
    "HTTP requests answered, by API (rest, graphql, probe, other), route pattern, GraphQL "
    "operation (its name, anonymous or unknown; none for REST), method and status.",
    ["api", "route", "operation", "method", "status"],
)
HTTP_LATENCY = Histogram(
    f"{PREFIX}_http_request_duration_seconds",
    "Time to answer an HTTP request, by API, route pattern, GraphQL operation and method.",
    ["api", "route", "operation", "method"],
    buckets=LATENCY_BUCKETS,
)
WS_OPEN = Gauge(
    f"{PREFIX}_websocket_connections",
    "Event streams open now: /ws/tournaments/ connections past the handshake and GraphQL "
    "subscriptions (tournamentEvents, matchEvents).",
    multiprocess_mode="livesum",
)
WS_FRAMES = Counter(
    f"{PREFIX}_websocket_frames_sent",
    "Event frames sent on the event streams (a GraphQL subscription's next messages too).",
)
STREAM_LAG = Histogram(
    f"{PREFIX}_stream_lag_seconds",
    "From an event's release (stored, or its paced release time) to its frame being sent.",
    buckets=LAG_BUCKETS,
)
TASKS = Counter(
    f"{PREFIX}_tasks",
    "Celery tasks run, by task name and final state (SUCCESS, FAILURE, RETRY).",
    ["task", "state"],
)
TASK_LATENCY = Histogram(
    f"{PREFIX}_task_duration_seconds",
    "Time a Celery task ran, by task name.",
    ["task"],
    buckets=LATENCY_BUCKETS,
)
TASK_RETRIES = Counter(f"{PREFIX}_task_retries", "Celery task retries, by task name.", ["task"])
TASK_FAILURES = Counter(
    f"{PREFIX}_task_failures", "Celery tasks that raised (no retry left), by task name.", ["task"]
)
MATCHES_RECORDED = Counter(f"{PREFIX}_matches_recorded", "Matches played and stored.")
MATCHES_RELEASED = Counter(
    f"{PREFIX}_matches_released", "Matches whose result was released (applied to the tournament)."
)
TOURNAMENT_CHANGES = Counter(
    f"{PREFIX}_tournament_transitions",
    "Tournaments started, finished or cancelled, by event.",
    ["event"],
)
THROTTLED = Counter(
    f"{PREFIX}_throttled_requests", "Requests refused with 429 throttled, by scope.", ["scope"]
)
LOGIN_LOCKOUTS = Counter(
    f"{PREFIX}_login_lockouts",
    "Admin logins locked for an account and an address after repeated failures (infra.lockout).",
)
DEPENDENCY_UP = Gauge(
    f"{PREFIX}_dependency_up",
    "1 while a dependency (database, redis) answers this process, 0 once it did not; the least "
    "over live processes.",
    ["dependency"],
    multiprocess_mode="livemin",
)
DEPENDENCY_CHANGES = Counter(
    f"{PREFIX}_dependency_changes",
    "A dependency (database, redis) lost or regained, as a process saw it happen.",
    ["dependency", "change"],
)
WEBHOOKS = Counter(
    f"{PREFIX}_webhook_deliveries",
    "Webhook delivery attempts by outcome (delivered, retrying, failed: no attempt left).",
    ["outcome"],
)


@contextmanager
def open_stream() -> Iterator[None]:
    """Count an event stream as open for the block (a GraphQL subscription's life)."""
    WS_OPEN.inc()
    try:
        yield
    finally:
        WS_OPEN.dec()


def frames_sent(count: int, released: Iterable[datetime] = ()) -> None:
    """Count ``count`` event frames sent on a stream, and their lag.

    The stream is ``/ws/tournaments/`` or a GraphQL subscription. Lag runs from each live frame's
    release (``released``) to now. The catch-up on connect is old news, not lag."""
    WS_FRAMES.inc(count)
    now = None
    for moment in released:
        now = now or timezone.now()
        STREAM_LAG.observe(max((now - moment).total_seconds(), 0.0))


@cache
def _state_collectors() -> tuple[Collector, ...]:
    return tuple(import_string(name)() for name in settings.METRICS_COLLECTORS)


def scrape_registry() -> CollectorRegistry:
    """What a scrape reads: all processes' counts (multiprocess) or this one's.

    Also the collectors of state, computed now."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    else:
        registry = CollectorRegistry(auto_describe=True)
        registry.register(_Forward(REGISTRY))
    for collector in _state_collectors():
        registry.register(collector)
    return registry


def scrape() -> bytes:
    """The Prometheus text exposition of every family."""
    return generate_latest(scrape_registry())


class _Forward(Collector):
    """This process's default registry, read through a scrape registry of its own."""

    def __init__(self, source: CollectorRegistry) -> None:
        self.source = source

    def collect(self) -> Iterable[Metric]:
        return self.source.collect()
