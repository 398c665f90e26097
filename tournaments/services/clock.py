"""The game's clock: passed deadlines are enforced and due matches released.

Each moment is also queued as a task when it is set (``enqueue``); this sweep is the safety net
that catches what a countdown could not carry (the full stack does not send long countdowns, a
worker may die) and, with no worker running, what a read of the tournament finds overdue.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from matches.models import Match, MatchStatus
from tournaments.models import Status, Tournament
from tournaments.services.deck import enforce_deck_deadline
from tournaments.services.matchplay import match_answer_timeout, match_release


def _due_releases(now: datetime) -> QuerySet[Match]:
    """Recorded matches whose last event has been out for one pace step."""
    pace = timedelta(seconds=float(getattr(settings, "MATCH_EVENT_PACE_SECONDS", 0.0)))
    return Match.objects.filter(
        status=MatchStatus.RECORDED, result_visible_at__lte=now - pace
    ).exclude(tournament__status=Status.CANCELLED)


def tournament_tick(*, tournament_id: int) -> None:
    """Enforce any deadline of this tournament that has already passed; release due matches."""
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
    due = _due_releases(now).filter(tournament_id=tournament_id)
    for match_id in due.values_list("pk", flat=True):
        match_release(match_id=match_id)


def sweep_deadlines() -> int:
    """Enforce the passed deadlines of every tournament and release every due match; the number
    of tournaments it looked at."""
    now = timezone.now()
    late_phases = Tournament.objects.filter(status=Status.DECK, phase_deadline__lte=now)
    late_answers = Match.objects.filter(
        status=MatchStatus.WAITING, question_deadline__lte=now
    ).exclude(tournament__status=Status.CANCELLED)
    ids = set(late_phases.values_list("pk", flat=True))
    ids |= set(late_answers.values_list("tournament_id", flat=True))
    ids |= set(_due_releases(now).values_list("tournament_id", flat=True))
    for tournament_id in sorted(ids):
        tournament_tick(tournament_id=tournament_id)
    return len(ids)
