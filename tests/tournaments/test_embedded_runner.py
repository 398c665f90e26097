"""On the embedded defaults the server's own task thread plays bots and enforces deadlines."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from infra.taskqueue import clear_runner, start_clock
from tournaments.models import DraftTurn, Seat, Tournament
from tournaments.services import lobby, start

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quiet_runner_afterwards() -> Iterator[None]:
    yield
    clear_runner()


def wait_for(check: Any, seconds: float = 20) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_a_missed_deck_deadline_is_auto_played_without_anyone_looking(
    catalogue: Any, settings: Any
) -> None:
    settings.TASK_RUNNER = "thread"
    ticket = lobby.tournament_create(
        host_name="Host", seat_count=2, seed=3, deck_deadline_seconds=1
    )
    lobby.seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=1)
    start.tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    assert Tournament.objects.get(pk=ticket.tournament.pk).round == 1
    assert wait_for(lambda: Tournament.objects.get(pk=ticket.tournament.pk).round >= 2)
    host = Seat.objects.get(pk=ticket.seat.pk)
    assert host.auto_played
    assert DraftTurn.objects.get(seat=host, round=1).auto_played
    bot_turn = DraftTurn.objects.get(seat__tournament=ticket.tournament, seat__number=1, round=1)
    assert bot_turn.finished and not bot_turn.auto_played


def test_the_embedded_clock_enforces_a_deadline_whose_countdown_was_lost(
    catalogue: Any, settings: Any
) -> None:
    """The server restarted while a Deck Phase deadline waited: its own clock still enforces it."""
    ticket = lobby.tournament_create(host_name="Host", seat_count=2, seed=3)
    lobby.seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=1)
    start.tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    Tournament.objects.filter(pk=ticket.tournament.pk).update(phase_deadline=timezone.now())
    settings.TASK_RUNNER = "thread"
    start_clock()
    assert wait_for(lambda: Tournament.objects.get(pk=ticket.tournament.pk).round >= 2)
    assert Seat.objects.get(pk=ticket.seat.pk).auto_played


def test_health_counts_the_embedded_task_thread_as_the_worker(client: Any, settings: Any) -> None:
    settings.TASK_RUNNER = "thread"
    start_clock()
    workers = client.get("/api/v1/health/").json()["workers"]
    assert workers == {"backend": "thread", "ok": True, "error": None, "alive": 1, "seen": []}
