"""Recordings append their counts (a row of their own) and a task folds them into the stored
rows: the rows are those a direct write leaves, and nothing is folded twice."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache

from server.celery import app as celery_app
from tournaments.models import CardStat, CardStatDelta
from tournaments.rules.cardstats import Counts, tally_rows
from tournaments.services.cardstats import (
    FOLD_QUEUED,
    card_stats_append,
    card_stats_fold,
    card_stats_write,
    one_fold,
)
from tournaments.services.reconcile import reconcile
from tournaments.tasks import card_stats_fold as fold_task

pytestmark = pytest.mark.django_db

FIELDS = ("key", "sets", "player", "offered", "picked", "decks", "deck_wins", "effects")
RECORDED = [
    ({("Castle/Dragon", "human"): Counts(decks=1, deck_wins=1)}, "Castle+City"),
    ({("Castle/Dragon", "rookie"): Counts(offered=3, picked=1)}, "Castle+City"),
    ({("City/Dog", "human"): Counts(decks=1, effects=2)}, "City+Funfair"),
]


def stored() -> list[tuple[Any, ...]]:
    return sorted(CardStat.objects.values_list(*FIELDS))


def test_the_fold_adds_what_recordings_appended_as_a_direct_write_would() -> None:
    for tally, sets in RECORDED:
        card_stats_write(tally_rows(tally, sets))
    direct = stored()
    CardStat.objects.all().delete()
    for tally, sets in RECORDED:  # in the test's transaction: no fold queued on commit
        card_stats_append(tally_rows(tally, sets))
    assert CardStatDelta.objects.count() == 3 and not CardStat.objects.exists()
    assert card_stats_fold() == 3
    assert stored() == direct and not CardStatDelta.objects.exists()
    assert card_stats_fold() == 0 and stored() == direct  # nothing folded twice


def test_the_reconciler_folds_what_a_lost_fold_task_left(catalogue: Any) -> None:
    tally, sets = RECORDED[0]
    card_stats_append(tally_rows(tally, sets))
    reconcile()
    assert not CardStatDelta.objects.exists()
    assert CardStat.objects.get(key="Castle/Dragon", sets="", player="human").decks == 1


def _drained() -> list[str]:
    """The names of the tasks waiting in the broker's default queue, taken out of it."""
    names: list[str] = []
    with celery_app.connection_for_read() as connection:
        queue = connection.SimpleQueue(celery_app.conf.task_default_queue)
        try:
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    return names
                names.append(message.headers["task"])
                message.ack()
        finally:
            queue.close()


@pytest.fixture
def queued() -> Iterator[Callable[[], list[str]]]:
    """Tasks sent to the broker (Redis with ``REDIS_URL``, else the in-memory one) and left
    there, as for a busy worker: the fixture answers those queued since it last asked."""
    conf = celery_app.conf
    _drained()
    conf.task_always_eager = False
    try:
        yield _drained
    finally:
        conf.task_always_eager = True
        _drained()


def _recorded(capture: Any, index: int) -> None:
    """One recording appending its counts and committing (its callbacks run)."""
    tally, sets = RECORDED[index % len(RECORDED)]
    with capture(execute=True):
        card_stats_append(tally_rows(tally, sets))


def test_recordings_queue_one_fold_until_it_starts_and_it_folds_them_all(
    queued: Callable[[], list[str]], django_capture_on_commit_callbacks: Any
) -> None:
    for index in range(6):
        _recorded(django_capture_on_commit_callbacks, index)
    assert queued() == ["tournaments.tasks.card_stats_fold"]
    for tally, sets in RECORDED * 2:
        card_stats_write(tally_rows(tally, sets))
    direct = stored()
    CardStat.objects.all().delete()
    assert fold_task.apply().get() == 6  # the one fold queued, run as a worker would
    assert stored() == direct and not CardStatDelta.objects.exists()
    _recorded(django_capture_on_commit_callbacks, 0)  # the fold started: the next queues again
    assert queued() == ["tournaments.tasks.card_stats_fold"]


def test_a_recording_committed_while_a_fold_runs_queues_another(
    queued: Callable[[], list[str]], django_capture_on_commit_callbacks: Any
) -> None:
    _recorded(django_capture_on_commit_callbacks, 0)
    assert len(queued()) == 1
    assert card_stats_fold() == 1  # the queued fold starts (the reconciler's, here) ...
    _recorded(django_capture_on_commit_callbacks, 1)  # ... and a recording commits after it
    assert queued() == ["tournaments.tasks.card_stats_fold"]
    assert card_stats_fold() == 1 and not CardStatDelta.objects.exists()


def test_a_task_queues_one_fold_for_its_recordings_as_it_ends_even_if_it_fails(
    queued: Callable[[], list[str]], django_capture_on_commit_callbacks: Any
) -> None:
    """A task playing several matches (``one_fold``): no Redis check per recording, one fold
    queued at its end for all of them, also when it ends with an error after they committed."""
    with one_fold():
        for index in range(3):
            _recorded(django_capture_on_commit_callbacks, index)
        assert queued() == [] and cache.get(FOLD_QUEUED) is None  # not even checked yet
    assert queued() == ["tournaments.tasks.card_stats_fold"]
    assert card_stats_fold() == 3
    with pytest.raises(RuntimeError), one_fold():
        _recorded(django_capture_on_commit_callbacks, 0)
        raise RuntimeError("the task's next step failed")
    assert queued() == ["tournaments.tasks.card_stats_fold"]
    with one_fold():
        pass  # nothing recorded: nothing queued
    assert queued() == [] and card_stats_fold() == 1
