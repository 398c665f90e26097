"""Deadlines that have passed are enforced when anyone looks, as well as by scheduled tasks.

With no worker running (the embedded default), the countdown tasks cannot fire on time; checking
on every read keeps the game moving: a late phase is auto-played and an unanswered question is
answered by the seat's policy before the caller sees the state.
"""

from __future__ import annotations

from django.utils import timezone

from matches.models import Match, MatchStatus
from tournaments.models import Status, Tournament


def tournament_tick(*, tournament_id: int) -> None:
    """Enforce any deadline of this tournament that has already passed."""
    from matches.services import match_answer_timeout
    from tournaments.services.deck import enforce_deck_deadline

    now = timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    if (
        tournament.status == Status.DECK
        and tournament.phase_deadline
        and tournament.phase_deadline <= now
    ):
        enforce_deck_deadline(tournament_id=tournament_id, round_number=tournament.round)
    late = Match.objects.filter(
        tournament_id=tournament_id, status=MatchStatus.WAITING, question_deadline__lte=now
    )
    for match_id, question in late.values_list("pk", "question"):
        if question is not None:
            match_answer_timeout(match_id=match_id, question=int(question["seq"]))


def sweep_deadlines() -> int:
    """Enforce the passed deadlines of every tournament; the number of tournaments it looked at."""
    now = timezone.now()
    late_phases = Tournament.objects.filter(status=Status.DECK, phase_deadline__lte=now)
    late_answers = Match.objects.filter(status=MatchStatus.WAITING, question_deadline__lte=now)
    ids = set(late_phases.values_list("pk", flat=True))
    ids |= set(late_answers.values_list("tournament_id", flat=True))
    for tournament_id in sorted(ids):
        tournament_tick(tournament_id=tournament_id)
    return len(ids)
