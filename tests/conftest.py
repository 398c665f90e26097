"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cards.catalogue import LoadReport, catalogue_load
from config.celery import app as celery_app


@pytest.fixture
def catalogue(db: None) -> LoadReport:
    """The project's card catalogue, loaded into the test database."""
    return catalogue_load()


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
    if request.node.get_closest_marker("real_worker"):
        yield
        return
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
