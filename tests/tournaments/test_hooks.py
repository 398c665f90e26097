"""The core's hooks: tasks named in settings, queued after the commit, for the tournaments their
condition wants (the leagues' tasks for league tournaments only)."""

from __future__ import annotations

from typing import Any

import pytest
from celery import signals
from django.db import transaction

from server.celery import app as celery_app
from tests.tournaments.play import play_to_the_end
from tournaments.services import hooks

pytestmark = pytest.mark.django_db(transaction=True)

received: list[tuple[int, int]] = []


@celery_app.task(name="tests.hooked")
def hooked(tournament_id: int, round_number: int) -> None:
    received.append((tournament_id, round_number))


def only_odd(tournament_id: int) -> bool:
    return tournament_id % 2 == 1


HERE = "tests.tournaments.test_hooks"


def test_a_tournament_outside_any_league_queues_no_league_task(catalogue: Any) -> None:
    ran: list[str] = []

    def record(sender: Any = None, **_: Any) -> None:
        ran.append(sender.name)

    signals.task_prerun.connect(record, weak=False)
    try:
        play_to_the_end(seats=3, seed=8)
    finally:
        signals.task_prerun.disconnect(record)
    assert "tournaments.tasks.play_matches" in ran  # tasks are seen
    assert not [name for name in ran if name.startswith("leagues.")]


@pytest.mark.parametrize(
    ("hook", "queued"),
    [
        (f"{HERE}.hooked", [(7, 3), (8, 3)]),  # no condition: every tournament
        ({"task": f"{HERE}.hooked", "when": f"{HERE}.only_odd"}, [(7, 3)]),
    ],
)
def test_a_hook_is_queued_after_the_commit_for_the_tournaments_it_wants(
    settings: Any, hook: Any, queued: list[tuple[int, int]]
) -> None:
    settings.TOURNAMENT_HOOKS = {"round_finished": [hook]}
    received.clear()
    with transaction.atomic():
        for tournament_id in (7, 8):
            hooks.fire("round_finished", tournament_id=tournament_id, round_number=3)
        hooks.fire("tournament_finished", tournament_id=7, round_number=3)  # no hook of its kind
        assert received == []  # nothing before the commit
    assert received == queued
