"""One match's own rows: run the engine, store a pause, store the result, verify it.

A match is *setup + seed + answers*; every step re-runs the engine from the start with the answers
given so far, so a paused match holds no worker and no memory, and a replay is exact. This module
knows matches only: the tournament side (``tournaments.services.matchplay``) decides when a match
is played, what its result does to the tournament and who hears of it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.utils.translation import gettext as _

from cards.snapshots import snapshot_specs
from infra import rows
from infra.bulk import append_rows
from infra.errors import ConflictError, NotFoundError
from matches.archive import archived_payloads
from matches.engine import DefaultPolicy, play_match, verify
from matches.engine.model import MatchResult, MatchSetup, PendingQuestion, Policy
from matches.engine.stored import setup_from_data
from matches.models import Match, MatchEvent, MatchStatus
from matches.observer import VIEWS, observe
from matches.selectors import ASKED

Outcome = MatchResult | PendingQuestion
SIDES = ("A", "B")


def side_seat_id(match: Match, side: str) -> int:
    return match.seat_a_id if side == "A" else match.seat_b_id


def match_setup(match: Match) -> MatchSetup:
    """The engine's setup of ``match``: its stored setup, card snapshot and rules version."""
    specs = snapshot_specs(match.snapshot_id)
    return setup_from_data(match.setup, specs, rules_version=match.rules_version)


def run_engine(
    match: Match,
    answers: list[Any],
    *,
    live: Collection[str] = (),
    policies: Mapping[str, Policy] | None = None,
) -> Outcome:
    """Run the match from the start with ``answers``; a ``live`` side's questions stop it.

    Any other side answers by its entry in ``policies`` (by default ``DefaultPolicy``); a policy
    must answer each question the same way every time, as the match is re-run from the start.
    """
    setup = match_setup(match)
    chosen = policies or {}
    sides: dict[str, Policy | None] = {
        side: None if side in live else chosen.get(side, DefaultPolicy()) for side in SIDES
    }
    return play_match(setup, match.seed, sides, record=True, answers=answers)


Released = list[tuple[dict[str, Any], datetime]]
"""Events newly stored, each with the instant it is released."""


class Wait(NamedTuple):
    """A match stopped at a live side's question: the question as stored, the instant it is
    asked (its events before it are out), its answer deadline and the events stored with it."""

    question: dict[str, Any]
    asked: datetime
    deadline: datetime
    released: Released


def match_wait(
    match: Match,
    pending: PendingQuestion,
    *,
    now: datetime,
    pace: float,
    floor: datetime,
    seconds: float,
) -> Wait:
    """Store the pause at a live side's question: the events before it not stored yet (paced
    as ``match_store`` paces them), and the question, asked once the last of them is out and
    answered within ``seconds`` of that."""
    released = _store_events(match, pending.events, now=now, pace=pace, floor=floor)
    asked = released[-1][1] if released else floor
    question = {**pending.question._asdict(), ASKED: asked.isoformat()}
    match.status = MatchStatus.WAITING
    match.answers = list(pending.answers)
    match.question = question
    deadline = asked + timedelta(seconds=seconds)
    match.question_deadline = deadline
    match.save()
    return Wait(question, asked, deadline, released)


def _store_events(
    match: Match, events: list[dict[str, Any]], *, now: datetime, pace: float, floor: datetime
) -> Released:
    """Store those of the match's ``events`` after the ones already stored (a match re-run from
    the start gives the same first events: each is stored once), paced ``pace`` seconds apart
    from ``now`` but none before ``floor``; returns them with their instants."""
    new = events[match.events_stored :]
    paced = (now + timedelta(seconds=pace * index) for index in range(len(new)))
    released = [at if at >= floor else floor for at in paced]
    match_id = match.pk
    append_rows(
        MatchEvent,
        [
            {
                "match_id": match_id,
                "seq": event["seq"],
                "kind": event["kind"],
                "payload": event,
                "visible_at": at,
            }
            for event, at in zip(new, released, strict=True)
        ],
    )
    match.events_stored = len(events)
    return list(zip(new, released, strict=True))


RECORDED_FIELDS = [
    "status",
    "winner",
    "reason",
    "fans_gained",
    "answers",
    "outcome",
    "question",
    "question_deadline",
    "finished_at",
    "result_visible_at",
    "event_counts",
    "events_stored",
]


def match_store(
    match: Match,
    result: MatchResult,
    *,
    now: datetime,
    pace: float,
    floor: datetime | None = None,
) -> Released:
    """Record the match: its events not stored yet (those after a question it stopped at),
    paced ``pace`` seconds apart from ``now`` but none before ``floor`` (the instant the events
    logged before them are out), and its result, kept hidden.

    Returns each event stored now with the instant it is released. The result reaches nobody
    until the tournament side releases the match (``match_release``). Unpaced (``pace <= 0``)
    it is released in the same transaction, so it is stored finished at once (one write, not
    two).
    """
    floor = floor or now
    released = _store_events(match, result.events, now=now, pace=pace, floor=floor)
    decks_after, taken = result.decks_after, result.piles_taken  # each computed on access
    match.status = MatchStatus.RECORDED if pace > 0 else MatchStatus.FINISHED
    match.winner_id = side_seat_id(match, result.winner)
    match.reason = result.reason
    match.fans_gained = dict(result.fans_gained)
    match.answers = list(result.answers)
    match.outcome = {
        "winner": result.winner,
        "decks_after": {side: list(decks_after[side]) for side in SIDES},
        "piles_taken": dict(taken),
        "removed": {side: list(result.removed.get(side, [])) for side in SIDES},
    }
    match.question = None
    match.question_deadline = None
    match.finished_at = now
    match.result_visible_at = released[-1][1] if released else max(now, floor)
    match.event_counts = event_counts(result.events)
    rows.save_fields(match, RECORDED_FIELDS)
    return released


def event_counts(events: list[dict[str, Any]]) -> dict[str, int]:
    """How many of ``events`` a spectator sees, and each side (its own events too)."""
    return {view: sum(observe(event, side) is not None for event in events) for view, side in VIEWS}


def match_finish(match: Match) -> None:
    """The last event is out: the match is finished for everyone (its result is public)."""
    if match.status == MatchStatus.FINISHED:  # stored finished (unpaced)
        return
    match.status = MatchStatus.FINISHED
    match.save(update_fields=["status"])


def match_fail(match: Match, error: str) -> None:
    match.status = MatchStatus.FAILED
    match.error = error[:2000]
    match.attempts += 1
    match.save(update_fields=["status", "error", "attempts"])


def match_verify(*, match_id: int) -> bool:
    """Re-run a finished match from its setup, seed and answers; store whether it matches."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise NotFoundError("not_found", _("No such match."))
    if match.status not in (MatchStatus.RECORDED, MatchStatus.FINISHED):
        raise ConflictError("not_finished", _("Only a finished match can be verified."))
    stored = [event.payload for event in match.events.order_by("seq")]
    if not stored:  # the tournament's logs were archived (manage.py archive_events)
        stored = archived_payloads(match_id) or []
    setup = match_setup(match)
    outcome = verify(setup, match.seed, list(match.answers), stored)
    Match.objects.filter(pk=match_id).update(verified=outcome)
    return outcome
