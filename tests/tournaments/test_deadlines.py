"""Passed deadlines are enforced by the periodic sweep on the full stack."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches.models import Match, MatchStatus
from tests.tournaments.play import open_game
from tests.tournaments.test_live_questions import juggler_game
from tournaments import tasks
from tournaments.models import DraftTurn, Seat, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_sweep_auto_plays_a_seat_that_missed_the_deck_deadline(catalogue: Any) -> None:
    (host,) = open_game(seats=2, seed=14, deck_deadline_seconds=600)
    assert tasks.sweep_deadlines.delay().get() == 0
    Tournament.objects.filter(pk=host.id).update(
        phase_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.sweep_deadlines.delay().get() == 1
    tournament = Tournament.objects.get(pk=host.id)
    assert tournament.round == 2
    seat = Seat.objects.get(tournament=tournament, number=0)
    assert seat.auto_played and DraftTurn.objects.get(seat=seat, round=1).auto_played


def test_the_sweep_answers_a_question_left_past_its_deadline(catalogue: Any) -> None:
    _, _, match = juggler_game()
    question = match.question
    assert question is not None
    Match.objects.filter(pk=match.pk).update(
        question_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert tasks.sweep_deadlines.delay().get() == 1
    match.refresh_from_db()
    assert match.answers[question["seq"]] == question["default"]
    assert match.status == MatchStatus.FINISHED or match.question["seq"] != question["seq"]  # type: ignore[index]
