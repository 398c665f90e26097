"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from celery._state import _set_task_join_will_block  # type: ignore[attr-defined]
from django.core.management.color import no_style
from django.db import connection
from django.db.backends.postgresql.operations import DatabaseOperations as PostgresOperations
from django.test import override_settings

from cards.catalogue import LoadReport, catalogue_load
from cards.models import Card, CardSet
from config.env import read_environment
from infra.taskqueue import broker_emptied
from server.celery import app as celery_app
from tests.caches import fresh_cache

_LOADED: dict[str, Any] = {}
# Set by pytest-xdist in each of its worker processes ("gw0", "gw1", ...); absent in one process.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _own_redis_database() -> None:
    """Each pytest-xdist worker takes its own Redis database: the one ``REDIS_URL`` names plus
    the worker's number. One worker's cache clears, throttling counts, broker queues and channel
    groups then never reach another's. The settings are read again from the changed environment
    (``config.env``, as at startup), and the environment is passed on to the processes tests
    start (workers, stacks, drills).
    """
    url = os.environ.get("REDIS_URL")
    if not XDIST_WORKER.startswith("gw") or not url:
        return
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + int(XDIST_WORKER[2:])
    os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{database}"))
    env = read_environment(os.environ)
    override_settings(
        REDIS_URL=env.redis_url,
        CACHES=env.caches,
        CHANNEL_LAYERS=env.channel_layers,
        CELERY_BROKER_URL=env.celery_broker_url,
        CELERY_RESULT_BACKEND=env.celery_result_backend,
    ).enable()
    celery_app.conf.update(
        broker_url=env.celery_broker_url, result_backend=env.celery_result_backend
    )


_own_redis_database()


def pytest_configure(config: pytest.Config) -> None:
    """The gettext catalogues compiled, as the two scripts do (a bare ``pytest`` run too); by
    the main process only when pytest-xdist splits the run, so workers never write them at once."""
    from infra.catalogues import compile_catalogues

    if not XDIST_WORKER:
        compile_catalogues()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, whose drop at the end no leftover session blocks: a
    thread's connection (an async test's database thread, the pool's idle one) would keep
    PostgreSQL from dropping it ("being accessed by other users"), and the next run would find
    it there."""
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


_TRUNCATE = PostgresOperations.sql_flush
_KEPT = frozenset({"django_content_type", "auth_permission"})


def _delete_rows(
    ops: PostgresOperations,
    style: Any,
    tables: list[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """A transactional test's flush as one ``DELETE`` per table, not PostgreSQL's ``TRUNCATE``.

    ``TRUNCATE`` gives each of the ~60 tables new files: ~0.5 s after every such test. Deleting
    the few rows a test wrote takes ~0.05 s. Django's foreign keys are deferred, so the order of
    the deletes does not matter. Sequences to reset still go through ``TRUNCATE``. Content
    types and permissions stay: no test writes them, and the flush's ``post_migrate`` would
    only write them again.
    """
    if reset_sequences:
        return _TRUNCATE(ops, style, tables, reset_sequences=True, allow_cascade=allow_cascade)
    delete = f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')}"
    emptied = (table for table in tables if table not in _KEPT)
    return [f"{delete} {style.SQL_FIELD(ops.quote_name(table))};" for table in emptied]


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete() -> Iterator[None]:
    """Every transactional test's flush deletes rows instead of truncating (``_delete_rows``)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PostgresOperations, "sql_flush", _delete_rows)
        yield


@pytest.fixture
def own_cache() -> Iterator[None]:
    """A test's own in-memory cache (``tests.caches.fresh_cache``): throttling counts from zero."""
    with fresh_cache():
        yield


@pytest.fixture
def catalogue(db: None) -> LoadReport:
    """The project's card catalogue, loaded into the test database.

    The loader runs once per test run (it checks every card: ~0.7 s); later tests get the same
    rows, primary keys included, in two bulk inserts.
    """
    if not _LOADED or CardSet.objects.exists():
        report = catalogue_load()
        _LOADED.update(
            report=report,
            sets=list(CardSet.objects.values()),
            cards=list(Card.objects.values()),
        )
        return report
    CardSet.objects.bulk_create(CardSet(**row) for row in _LOADED["sets"])
    Card.objects.bulk_create(Card(**row) for row in _LOADED["cards"])
    _reset_sequences(CardSet, Card)
    cached: LoadReport = _LOADED["report"]
    return cached


def _reset_sequences(*models: Any) -> None:
    """Rows inserted with their primary keys leave PostgreSQL's sequences behind: catch up."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Tests log users in often; a real password hash costs ~0.5 s each time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _tasks_run_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run Celery tasks queued by a test in the test's own process, even with REDIS_URL set.

    The test database exists only inside pytest's transaction, so no worker elsewhere could see
    it, and tasks sent to the shared broker would pile up there. Tests marked ``real_worker`` opt
    out: they use the broker and start a worker of their own.
    """
    # A worker started in this process by an earlier test (celery's start_worker) may leave
    # Celery's process-wide "inside a worker" flag on; every EagerResult.get() would then refuse.
    _set_task_join_will_block(False)
    if request.node.get_closest_marker("real_worker"):
        yield
        return
    # Tasks never wait in the broker here: the reconciler must not take a Redis emptied by
    # another test (a cache clear) for a restart that lost them (test_reconcile tests that).
    broker_emptied()
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_eager_propagates)
    conf.task_always_eager = conf.task_eager_propagates = True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _celery_runner_and_instant_events(settings: Any) -> None:
    """Tests queue tasks through Celery (eager above) and release match events at once.

    Tests of the embedded worker thread or of paced events set these back themselves.
    """
    settings.TASK_RUNNER = "celery"
    settings.MATCH_EVENT_PACE_SECONDS = 0


@pytest.fixture(autouse=True)
def _unthrottled(settings: Any) -> None:
    """The suite plays hundreds of tournaments a minute from one address; the throttling tests
    set their own rates."""
    settings.THROTTLE_RATES = {}


@pytest.fixture(autouse=True)
def _repeatable_seeds(settings: Any) -> None:
    """A test's ``seed`` is the tournament's seed, so its tournament is the same every run.

    The tests of unpredictable seeds set this back to the server's default.
    """
    settings.TRUST_HOST_SEED = True


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """A new channel layer per test: a layer's locks belong to the event loop that first used
    them, and each async test runs on a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _fresh_card_caches() -> None:
    """Specs and card facts are cached per snapshot and tournament id, which never repeat on a
    server; a flushed test database hands the same ids out again, so each test starts cold."""
    from cards.snapshots import snapshot_specs
    from tournaments.selectors.cards import _facts_of_tournament

    snapshot_specs.cache_clear()
    _facts_of_tournament.cache_clear()


@pytest.fixture(autouse=True)
def _no_fold_queued() -> None:
    """A fold key left by an earlier test (a worker stopped before its queued fold ran) would
    keep this test's recordings from queueing theirs for a minute: start each with none."""
    from django.core.cache import cache

    from tournaments.services.cardstats import FOLD_QUEUED

    cache.delete(FOLD_QUEUED)


@pytest.fixture(autouse=True)
def _fresh_card_answers() -> None:
    """The card API's cached answers outlive a flushed database: start each test on a new
    catalogue version (clearing the cache would flush the Redis database the broker shares)."""
    from cards.cache import catalogue_changed

    catalogue_changed()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files with a test marked ``long`` first (in the order collected), then the others
    with the most tests first.

    ``scripts/test`` hands files out in this order (pytest-xdist's ``--dist loadfile`` with
    ``--no-loadscope-reorder``): a process takes the next file whenever it is nearly done with
    its own. Its own reordering (most tests first) would leave a few-test file of minutes, the
    fault drill, to the end, where it runs alone while the other process has nothing left.
    Started first, the long files run beside the short ones. A file's tests keep their order.
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def key(tests: list[pytest.Item]) -> tuple[bool, int]:
        if any(test.get_closest_marker("long") for test in tests):
            return (False, 0)
        return (True, -len(tests))

    items[:] = [item for tests in sorted(files.values(), key=key) for item in tests]
