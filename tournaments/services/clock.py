"""The game's clock: passed deadlines are enforced and due matches released.

Each moment is also queued as a task when it is set (``enqueue``). This sweep is the safety net. It
catches what a countdown could not carry. The full stack does not send long countdowns. And a worker
may die. With no worker running, it catches what a read of the tournament finds overdue. What is due
comes from ``tournaments.selectors.owed``: the work owed without a task. That is deadlines, answer
timeouts, releases and unclosed rounds. The reconciler (``tournaments.services.reconcile``) runs
this sweep.
"""

from __future__ import annotations

from django.utils import timezone

from matches.models import Match, MatchStatus
from tournaments.models import Status, Tournament
from tournaments.selectors.owed import Owed, due_releases, owed_work, unclosed_rounds
from tournaments.services.deck import enforce_deck_deadline
from tournaments.services.matchplay import match_answer_timeout, match_release
from tournaments.services.rounds import round_close


def tournament_tick(*, tournament_id: int) -> None:
    """Enforce this tournament's passed deadlines and release its due matches.

    Close a round whose matches are all released.
    """
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
    due = due_releases(now).filter(tournament_id=tournament_id)
    for match_id in due.values_list("pk", flat=True):
        match_release(match_id=match_id)
    owed = unclosed_rounds().filter(pk=tournament_id).values_list("round", flat=True).first()
    if owed is not None:
        round_close(tournament_id=tournament_id, round_number=owed)


def sweep_deadlines() -> int:
    """Enforce every tournament's passed deadlines and release every due match.

    Return the number of tournaments looked at.
    """
    return sweep(owed_work(now=timezone.now()))


def sweep(owed: list[Owed]) -> int:
    """Tick every tournament owed work the clock does in place.

    Return the number of tournaments.
    """
    ids = {o.tournament_id for o in owed if o.task is None and o.tournament_id is not None}
    for tournament_id in sorted(ids):
        tournament_tick(tournament_id=tournament_id)
    return len(ids)
