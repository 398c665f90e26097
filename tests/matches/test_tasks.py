"""Match tasks are idempotent, and a stored match verifies by re-running it."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match, MatchEvent
from tests.tournaments.play import Player, open_game
from tournaments import tasks
from tournaments.models import Seat, Tournament, TournamentEvent, Trophy
from tournaments.services.matchruns import match_verify

pytestmark = pytest.mark.django_db(transaction=True)


def one_round_with_a_bot() -> Player:
    (host,) = open_game(seats=2, seed=31)
    while host.get()["round"] == 1:
        assert host.act()
    return host


def state(tournament_id: int) -> tuple[Any, ...]:
    return (
        Tournament.objects.get(pk=tournament_id).version,
        MatchEvent.objects.filter(match__tournament_id=tournament_id).count(),
        TournamentEvent.objects.filter(tournament_id=tournament_id).count(),
        list(Trophy.objects.filter(tournament_id=tournament_id).values_list("winner", "to_box")),
        list(Seat.objects.filter(tournament_id=tournament_id).values_list("deck", "tokens")),
    )


def test_a_match_task_delivered_twice_records_one_result(catalogue: Any) -> None:
    host = one_round_with_a_bot()
    match = Match.objects.get(tournament_id=host.id, round=1)
    before = state(host.id)
    tasks.play_match.delay(match.pk)
    tasks.play_match.delay(match.pk)
    assert state(host.id) == before


def test_a_stored_match_verifies_and_a_tampered_one_does_not(catalogue: Any) -> None:
    host = one_round_with_a_bot()
    match = Match.objects.get(tournament_id=host.id, round=1)
    assert match_verify(match_id=match.pk) is True
    match.refresh_from_db()
    assert match.verified is True
    event = MatchEvent.objects.filter(match=match, kind="attack").first()
    assert event is not None
    event.payload = {**event.payload, "total": event.payload["total"] + 1}
    event.save()
    assert match_verify(match_id=match.pk) is False
