"""Playing matches: run the engine, pause at a live seat's question, record the result.

A match is *setup + seed + answers*; every step re-runs the engine from the start with the answers
given so far, so a paused match holds no worker and no memory, and a replay is exact.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.errors import ApplicationError, ConflictError, NotFoundError
from config.tasks import enqueue
from matches.engine import DefaultPolicy, play_match, verify
from matches.engine.model import InvalidAnswer, MatchResult, PendingQuestion, Policy
from matches.models import Match, MatchEvent, MatchStatus
from matches.selectors import OWNER_KINDS, redact
from matches.setups import catalogue_specs, setup_from_data
from tournaments.models import Seat, SeatKind, Tournament, Trophy
from tournaments.services.common import Forbidden, locked_tournament
from tournaments.services.events import publish, publish_many
from tournaments.services.rounds import round_finish

Outcome = MatchResult | PendingQuestion


def _locked_match(tournament: Tournament, match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id, tournament=tournament).first()
    if match is None:
        raise NotFoundError("not_found", "No such match.")
    return match


def _tournament_of(match_id: int) -> int:
    found = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise NotFoundError("not_found", "No such match.")
    return found


def side_seat(match: Match, side: str) -> Seat:
    return match.seat_a if side == "A" else match.seat_b


def _policies(match: Match) -> dict[str, Policy | None]:
    """A human seat that answers live gets no policy: the engine stops at its questions."""
    return {
        side: None if seat.kind == SeatKind.HUMAN and seat.answers_live else DefaultPolicy()
        for side, seat in (("A", match.seat_a), ("B", match.seat_b))
    }


def run_engine(match: Match, answers: list[Any]) -> Outcome:
    """Run the match from the start with ``answers``, stopping at a live seat's next question."""
    setup = setup_from_data(match.setup, catalogue_specs())
    return play_match(setup, match.seed, _policies(match), record=True, answers=answers)


def match_play(*, match_id: int) -> None:
    """Play a scheduled match as far as it goes (idempotent: any other status is left alone)."""
    with locked_tournament(_tournament_of(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status != MatchStatus.SCHEDULED:
            return
        _advance(tournament, match, run_engine(match, list(match.answers)))


def match_answer(*, match_id: int, seat: Seat | None, question: int, answer: Any) -> Match:
    """A live seat answers the match's pending question."""
    with locked_tournament(_tournament_of(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        pending = _pending_question(match, question)
        owner = side_seat(match, pending["side"])
        if seat is None or seat.pk != owner.pk:
            raise Forbidden("not_your_question", "This question is for the other seat.")
        try:
            outcome = run_engine(match, [*match.answers, answer])
        except InvalidAnswer as error:
            raise ApplicationError(error.code, error.message, {"question": question}) from error
        _advance(tournament, match, outcome)
    return match


def match_answer_timeout(*, match_id: int, question: int) -> bool:
    """At the answer deadline the seat's policy answers; ``True`` if it did."""
    with locked_tournament(_tournament_of(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status != MatchStatus.WAITING or (match.question or {}).get("seq") != question:
            return False
        if match.question_deadline and timezone.now() < match.question_deadline:
            return False
        default = list(match.question["default"])  # type: ignore[index]
        _advance(tournament, match, run_engine(match, [*match.answers, default]))
    return True


def _pending_question(match: Match, question: int) -> dict[str, Any]:
    if match.status != MatchStatus.WAITING or match.question is None:
        raise ConflictError("no_question", "This match is not waiting for an answer.")
    if match.question["seq"] != question:
        raise ConflictError(
            "stale_question",
            "That question is no longer pending.",
            {"pending": match.question["seq"]},
        )
    return match.question


def _advance(tournament: Tournament, match: Match, outcome: Outcome) -> None:
    if isinstance(outcome, PendingQuestion):
        _wait(tournament, match, outcome)
    else:
        match_record(tournament, match, outcome)


def _wait(tournament: Tournament, match: Match, pending: PendingQuestion) -> None:
    question = pending.question._asdict()
    seconds = tournament.answer_deadline_seconds
    match.status = MatchStatus.WAITING
    match.answers = list(pending.answers)
    match.question = question
    match.question_deadline = timezone.now() + timedelta(seconds=seconds)
    match.save()
    owner = side_seat(match, pending.question.side)
    publish(
        tournament,
        "match_question",
        {"match": match.pk, "question": question},
        audience=owner.number,
    )
    publish(tournament, "match_waiting", {"match": match.pk, "seat": owner.number})
    match_id, seq = match.pk, pending.question.seq
    from matches import tasks

    transaction.on_commit(lambda: enqueue(tasks.answer_timeout, match_id, seq, countdown=seconds))


def match_record(tournament: Tournament, match: Match, result: MatchResult) -> None:
    """Store the events and the result; hand out the trophy, fans and changed decks."""
    now = timezone.now()
    pace = float(getattr(settings, "MATCH_EVENT_PACE_SECONDS", 0.0))
    released = [now + timedelta(seconds=pace * index) for index in range(len(result.events))]
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, seq=event["seq"], kind=event["kind"], payload=event, visible_at=at)
        for event, at in zip(result.events, released, strict=True)
    )
    _stream_events(tournament, match, result.events, released)
    winner = side_seat(match, result.winner)
    match.status = MatchStatus.FINISHED
    match.winner = winner
    match.reason = result.reason
    match.fans_gained = result.fans_gained
    match.answers = list(result.answers)
    match.question = None
    match.question_deadline = None
    match.finished_at = now
    match.result_visible_at = now + timedelta(seconds=pace * max(len(result.events) - 1, 0))
    match.save()
    _apply_result(tournament, match, result)
    publish(
        tournament,
        "match_finished",
        {"match": match.pk, "park": match.park, "winner": winner.number, "reason": result.reason},
        visible_at=match.result_visible_at,
    )
    round_finish(tournament)


def _stream_events(
    tournament: Tournament, match: Match, events: list[dict[str, Any]], released: list[datetime]
) -> None:
    """Copy the match's events into the tournament's live log, each to the audience it may reach.

    Public events (as a spectator sees them) go to everyone; a side's own questions, answers and
    looks go to that seat alone; the shuffled orders go nowhere.
    """
    items: list[tuple[str, dict[str, Any], int | None, datetime]] = []
    for event, at in zip(events, released, strict=True):
        public = redact(event, None)
        if public is not None:
            items.append(("match_event", {"match": match.pk, "event": public}, None, at))
        elif event["kind"] in OWNER_KINDS:
            owner = side_seat(match, event["side"]).number
            items.append(("match_event", {"match": match.pk, "event": event}, owner, at))
    publish_many(tournament, items)


def _apply_result(tournament: Tournament, match: Match, result: MatchResult) -> None:
    decks_after, taken = result.decks_after, result.piles_taken  # each computed on access
    for side in ("A", "B"):
        seat = side_seat(match, side)
        seat.deck = list(decks_after[side])
        seat.tokens += result.fans_gained.get(side, 0)
        seat.lost_previous = side != result.winner
        seat.save(update_fields=["deck", "tokens", "lost_previous"])
    consumed = {  # effects take from the top of this match's share of each pile
        uid
        for level, refs in match.setup["piles"].items()
        for uid, _ in refs[: taken.get(level, 0)]
    }
    for pile in tournament.piles.select_for_update():
        pile.cards = [uid for uid in pile.cards if uid not in consumed]
        pile.save(update_fields=["cards"])
    removed = [uid for side in ("A", "B") for uid in result.removed.get(side, [])]
    if removed:
        tournament.left_game = [*tournament.left_game, *removed]
        tournament.save(update_fields=["left_game"])
    if not tournament.is_final:
        _award_trophy(tournament, match, side_seat(match, result.winner))


def _award_trophy(tournament: Tournament, match: Match, winner: Seat) -> None:
    """The winner takes the park's trophy; the Robot's goes back to the box at 3-7 seats."""
    trophy = Trophy.objects.select_for_update().get(
        tournament=tournament, park=match.park, round=match.round
    )
    trophy.winner = winner
    trophy.to_box = winner.is_robot and tournament.seat_count > 1
    trophy.save(update_fields=["winner", "to_box"])


def match_verify(*, match_id: int) -> bool:
    """Re-run a finished match from its setup, seed and answers; store whether it matches."""
    match = Match.objects.select_related("seat_a", "seat_b", "winner").filter(pk=match_id).first()
    if match is None:
        raise NotFoundError("not_found", "No such match.")
    if match.status != MatchStatus.FINISHED:
        raise ConflictError("not_finished", "Only a finished match can be verified.")
    stored = [event.payload for event in match.events.order_by("seq")]
    setup = setup_from_data(match.setup, catalogue_specs())
    outcome = verify(setup, match.seed, list(match.answers), stored)
    Match.objects.filter(pk=match_id).update(verified=outcome)
    return outcome
