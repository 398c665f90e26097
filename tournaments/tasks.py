"""Celery tasks: thin interfaces that take ids and call one service.

Each imports its service in the task body, so no service ever imports a task. Services queue tasks
by name through ``enqueue_named``.

Every task retries a database or broker error with backoff (``infra.taskqueue.RETRY_OPTIONS``).
Every task is idempotent. It re-checks the state under the tournament lock. So a task the reconciler
queued again, while the first was only slow, changes nothing.
"""

from __future__ import annotations

import logging
import time
import traceback

from celery import Task, shared_task

from infra.taskqueue import RETRIED_ERRORS, RETRY_OPTIONS, enqueue_named

log = logging.getLogger(__name__)

# A match that fails this many times is marked failed (with a public event), not retried again.
MAX_ATTEMPTS = 3


@shared_task(acks_late=True, **RETRY_OPTIONS)
def bot_deck_phases(tournament_id: int, seat_ids: list[int]) -> None:
    """The bots' Deck Phases.

    If they close it, this task plays the round's matches too, once that has committed. It then
    plays the rounds after it while the bots alone play them (``_play_rounds``). That is one hop
    fewer per round than queueing ``play_matches`` and the next ``bot_deck_phases``. Killed in
    between, its redelivery finds the bots done. The reconciler then drives the scheduled matches or
    the next Deck Phase's bots.
    """
    from tournaments.services import deck
    from tournaments.services.cardstats import one_fold

    with one_fold():
        scheduled = deck.bot_deck_phases(tournament_id=tournament_id, seat_ids=seat_ids)
        _play_rounds(tournament_id, scheduled, began=time.monotonic(), retried_here=False)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def bot_deck_phase(tournament_id: int, seat_id: int) -> None:
    """One bot seat's Deck Phase: the task's name before ``bot_deck_phases``.

    It is kept so that tasks queued before an upgrade still run.
    """
    bot_deck_phases(tournament_id, [seat_id])


@shared_task(acks_late=True, **RETRY_OPTIONS)
def enforce_deck_deadline(tournament_id: int, round_number: int) -> bool:
    from tournaments.services import deck

    return deck.enforce_deck_deadline(tournament_id=tournament_id, round_number=round_number)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def card_stats_fold() -> int:
    """Add the appended card statistics recordings to the stored rows. Each recording queues it."""
    from tournaments.services.cardstats import card_stats_fold as fold

    return fold()


@shared_task(acks_late=True, **RETRY_OPTIONS)
def sweep_deadlines() -> int:
    """Enforce every passed deadline and release every due match.

    This is the reconciler's first step. The name is kept so that a beat of an older release still
    drives the clock.
    """
    from tournaments.services import clock

    return clock.sweep_deadlines()


@shared_task(acks_late=True, **RETRY_OPTIONS)
def reconcile(source: str = "beat") -> int:
    """Drive every tournament's owed work. Return the number of tasks queued again.

    Celery beat sends it with ``source="beat"``. It then records beat's heartbeat, and runs only if
    no worker's clock ran it this period. A worker's clock may instead run it in place
    (``"clock"``), having taken the period's lease itself. See ``infra.liveness``.
    """
    from infra import liveness
    from tournaments.services import reconcile as reconciler

    if source == "beat" and not liveness.beat_turn("reconcile"):
        return 0
    return len(reconciler.reconcile().requeued)


@shared_task(bind=True, acks_late=True, **RETRY_OPTIONS)
def play_match(self: Task, match_id: int, tournament_id: int | None = None) -> None:
    """Play a match.

    A failure of the match itself is retried. The last one marks the match failed. A database or
    broker error is not the match's fault. It is retried with backoff, and never marks the match
    failed. The reconciler queues it again once the retries run out.
    """
    from tournaments.services import matchplay

    try:
        matchplay.match_play(match_id=match_id, tournament_id=tournament_id)
    except RETRIED_ERRORS:
        raise  # autoretry_for
    except Exception as error:
        if self.request.retries >= MAX_ATTEMPTS - 1 or self.request.is_eager:
            matchplay.match_failed(match_id=match_id, error=traceback.format_exc())
            return
        raise self.retry(exc=error, countdown=2**self.request.retries) from error


@shared_task(acks_late=True, **RETRY_OPTIONS)
def play_matches(tournament_id: int, match_ids: list[int]) -> None:
    """Play a round's matches of one tournament, each in its own transaction (``matches_play``).

    Then play the rounds after it while the bots alone play them (``_play_rounds``). If one match
    cannot be played, the rest are queued each on its own (``play_match``). That task retries it,
    and at its last attempt marks only that one failed. A database or broker error is retried with
    backoff, like every task's.
    """
    from tournaments.services.cardstats import one_fold

    with one_fold():  # the card statistics' fold queued once for the task's recordings
        _play_rounds(tournament_id, match_ids, began=time.monotonic(), retried_here=True)


CHAIN_SECONDS = 1.0
"""How long one task goes on playing a bot tournament's rounds before it leaves the next one's
bots to a task of their own (the other tournaments' tasks wait for this worker process)."""


def _play_rounds(
    tournament_id: int, scheduled: list[int], *, began: float, retried_here: bool
) -> None:
    """Play the round's ``scheduled`` matches, then the next rounds, for up to ``CHAIN_SECONDS``.

    Once the round's last match is released, close the round. In the same transaction, play the bots
    of the Deck Phase that opens. If that closes the phase, play its matches, and so on. Each step
    commits on its own. The nudges and tasks each queues on its commit go out at once.

    Once the chain's time has run out, the round closes on its own. The next bots get a task of
    their own. A database or broker error may strike in a step after the first. It queues
    ``play_matches`` for the matches just played. That task finds them played, closes the round and
    goes on from there. ``retried_here``: this task retries an error in the first step.
    """
    from tournaments.services import deck
    from tournaments.services.rounds import round_close

    while scheduled:
        try:
            owed = _play_matches(tournament_id, scheduled)
        except RETRIED_ERRORS:
            if retried_here:
                raise
            enqueue_named("tournaments.tasks.play_matches", tournament_id, scheduled)
            return
        if owed is None:
            return
        try:
            if time.monotonic() - began > CHAIN_SECONDS:
                round_close(tournament_id=tournament_id, round_number=owed)  # queues the bots
                return
            scheduled = deck.bot_deck_phases(
                tournament_id=tournament_id, seat_ids=[], close_round=owed
            )
        except RETRIED_ERRORS:
            enqueue_named("tournaments.tasks.play_matches", tournament_id, scheduled)
            return
        retried_here = False


def _play_matches(tournament_id: int, match_ids: list[int]) -> int | None:
    """``matches_play``, leaving the round's close to the caller. Return the round owed it, if any.

    If one match cannot be played, each is queued on its own. Each then closes the round itself.
    """
    from tournaments.services import matchplay

    try:
        return matchplay.matches_play(
            tournament_id=tournament_id, match_ids=match_ids, closes=False
        )
    except RETRIED_ERRORS:
        raise
    except Exception:
        log.warning("Matches %s not played together: one by one", match_ids, exc_info=True)
        for match_id in match_ids:
            enqueue_named("tournaments.tasks.play_match", match_id, tournament_id)
        return None


@shared_task(acks_late=True, **RETRY_OPTIONS)
def answer_timeout(match_id: int, question: int) -> bool:
    from tournaments.services import matchplay

    return matchplay.match_answer_timeout(match_id=match_id, question=question)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def release_match(match_id: int) -> bool:
    from tournaments.services import matchplay

    return matchplay.match_release(match_id=match_id)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def card_balance(balance_id: int) -> None:
    """A card's balance simulation, queued from the admin."""
    from tournaments.services.balance import card_balance_run

    card_balance_run(balance_id=balance_id)
