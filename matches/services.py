"""One match's own rows: store a pause, store the result, finish or fail it.

A match is *setup + seed + answers*. Every step re-runs the engine from the start with the answers
given so far. So a paused match holds no worker and no memory, and a replay is exact.

This module knows matches only. The tournament side runs the engine with the tournament's frozen
cards (``tournaments.services.matchruns``). It decides when a match is played
(``tournaments.services.matchplay``). It also decides what the result does to the tournament and who
hears of it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple, TypedDict

from infra import rows
from infra.bulk import append_rows
from matches.engine.model import MatchResult, PendingQuestion
from matches.models import Match, MatchEvent, MatchStatus
from matches.observer import VIEWS, observe
from matches.selectors import ASKED

Outcome = MatchResult | PendingQuestion
SIDES = ("A", "B")


def side_seat_id(match: Match, side: str) -> int:
    return match.seat_a_id if side == "A" else match.seat_b_id


class StoredOutcome(TypedDict):
    """A recorded match's ``outcome`` column: the winner and where it left the cards.

    Cards are given by uid."""

    winner: str
    decks_after: dict[str, list[int]]
    piles_taken: dict[str, int]
    removed: dict[str, list[int]]


Released = list[tuple[dict[str, object], datetime]]
"""Events newly stored, each with the instant it is released."""


class Wait(NamedTuple):
    """A match stopped at a live side's question.

    It holds the question as stored and the instant it is asked. Its events before it are out by
    then. It also holds its answer deadline and the events stored with it."""

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
    """Store the pause at a live side's question.

    The events before it not stored yet are stored, paced as ``match_store`` paces them. The
    question is asked once the last of them is out. It must be answered within ``seconds`` of
    that."""
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
    match: Match, events: list[dict[str, object]], *, now: datetime, pace: float, floor: datetime
) -> Released:
    """Store the match's ``events`` after those already stored; returns them with their instants.

    A match re-run from the start gives the same first events. Each is stored once. They are paced
    ``pace`` seconds apart from ``now``, but none before ``floor``."""
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
    """Record the match: its events not stored yet, and its result, kept hidden.

    Unstored events are those after a question it stopped at. They are paced ``pace`` seconds apart
    from ``now``, but none before ``floor``. ``floor`` is the instant the events logged before them
    are out.

    Returns each event stored now with the instant it is released. The result reaches nobody until
    the tournament side releases the match (``match_release``). Unpaced (``pace <= 0``) it is
    released in the same transaction. So it is stored finished at once (one write, not two).
    """
    floor = floor or now
    released = _store_events(match, result.events, now=now, pace=pace, floor=floor)
    decks_after, taken = result.decks_after, result.piles_taken  # each computed on access
    match.status = MatchStatus.RECORDED if pace > 0 else MatchStatus.FINISHED
    match.winner_id = side_seat_id(match, result.winner)
    match.reason = result.reason
    match.fans_gained = dict(result.fans_gained)
    match.answers = list(result.answers)
    outcome: StoredOutcome = {
        "winner": result.winner,
        "decks_after": {side: list(decks_after[side]) for side in SIDES},
        "piles_taken": dict(taken),
        "removed": {side: list(result.removed.get(side, [])) for side in SIDES},
    }
    match.outcome = outcome
    match.question = None
    match.question_deadline = None
    match.finished_at = now
    match.result_visible_at = released[-1][1] if released else max(now, floor)
    match.event_counts = event_counts(result.events)
    rows.save_fields(match, RECORDED_FIELDS)
    return released


def event_counts(events: list[dict[str, object]]) -> dict[str, int]:
    """How many of ``events`` a spectator sees, and each side (its own too)."""
    return {view: sum(observe(event, side) is not None for event in events) for view, side in VIEWS}


def match_finish(match: Match) -> None:
    """The last event is out: the match is finished for everyone.

    Its result is public."""
    if match.status == MatchStatus.FINISHED:  # stored finished (unpaced)
        return
    match.status = MatchStatus.FINISHED
    match.save(update_fields=["status"])


def match_fail(match: Match, error: str) -> None:
    match.status = MatchStatus.FAILED
    match.error = error[:2000]
    match.attempts += 1
    match.save(update_fields=["status", "error", "attempts"])
