"""The Match Phase as the tournament drives it: play, pause for a live answer, record, release.

A played match is first *recorded*. Its events are stored with the instants that pace them. Its
result is kept aside. It is *released* when its last event is out. Only then does the result reach
the tournament: trophy, fans, decks, piles. Once every match of the round is released, the round
closes. So no view and no stream shows a result, a round change or a champion ahead of the match's
events.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra import rows
from infra.bulk import appends_gathered
from infra.errors import ApplicationError, ConflictError, ForbiddenError, NotFoundError
from infra.observe import state_changed
from infra.taskqueue import enqueue_named
from matches.engine.model import SIDES, InvalidAnswer, MatchResult
from matches.models import Match, MatchStatus
from matches.observer import observe
from matches.release import is_released
from matches.selectors import ASKED, asked
from matches.services import (
    Outcome,
    Released,
    StoredOutcome,
    match_fail,
    match_finish,
    match_store,
    match_wait,
)
from tournaments.models import Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules.bots.questions import question_policy
from tournaments.selectors.bots import level_of
from tournaments.services.cardstats import card_stats_of_match
from tournaments.services.common import locked_tournament, save_later
from tournaments.services.events import publish, publish_many, release_floor
from tournaments.services.matchruns import run_engine
from tournaments.services.rounds import round_close, round_on

log = logging.getLogger(__name__)


def tournament_of_match(match_id: int) -> int:
    found = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise NotFoundError("not_found", _("No such match."))
    return found


def _locked_match(tournament: Tournament, match_id: int) -> Match:
    """The match of this tournament, locked, with its two seats. One statement, built once."""
    found = _locked_matches(tournament, [match_id])
    if not found:
        raise NotFoundError("not_found", _("No such match."))
    return found[0]


def _locked_matches(tournament: Tournament, match_ids: list[int]) -> list[Match]:
    """Those of the matches that are this tournament's, locked, each with its two seats.

    They come in id order, by one statement built once per count. Each also tells whether another
    match of its round was unfinished then (``round_open_besides``). It is read under the
    tournament's lock, which every change of a match's status takes. So it holds until this
    transaction changes one. Releasing the one match a transaction locked thus answers "was it the
    round's last?" without a query (``rounds.round_owed_close``).
    """
    with connection.cursor() as cursor:
        cursor.execute(_match_sql(len(match_ids)), [*match_ids, tournament.pk])
        found = cursor.fetchall()
    width = len(Match._meta.concrete_fields)
    seats = len(Seat._meta.concrete_fields)
    matches = []
    for row in found:
        match = rows.instance(Match, "m", row[:width])
        match.seat_a = rows.instance(Seat, "a", row[width : width + seats])
        match.seat_b = rows.instance(Seat, "b", row[width + seats : width + 2 * seats])
        match.round_open_besides = bool(row[-1])
        matches.append(match)
    return matches


@cache
def _match_sql(count: int) -> str:
    q, col = rows.quote, rows.column
    match, seat = q(Match._meta.db_table), q(Seat._meta.db_table)
    ids = ", ".join(["%s"] * count)
    return (
        f"SELECT {rows.columns_of(Match, 'm')}, {rows.columns_of(Seat, 'a')}, "
        f"{rows.columns_of(Seat, 'b')}, EXISTS (SELECT 1 FROM {match} o "
        f"WHERE o.{col(Match, 'tournament')} = m.{col(Match, 'tournament')} "
        f"AND o.{col(Match, 'round')} = m.{col(Match, 'round')} "
        f"AND o.{col(Match, 'status')} <> '{MatchStatus.FINISHED}' "
        f"AND o.{col(Match, 'id')} <> m.{col(Match, 'id')}) FROM {match} m "
        f"JOIN {seat} a ON a.{col(Seat, 'id')} = m.{col(Match, 'seat_a')} "
        f"JOIN {seat} b ON b.{col(Seat, 'id')} = m.{col(Match, 'seat_b')} "
        f"WHERE m.{col(Match, 'id')} IN ({ids}) AND m.{col(Match, 'tournament')} = %s "
        f"ORDER BY m.{col(Match, 'id')}{rows.lock_clause('m')}"
    )


@contextmanager
def match_changes(tournament_id: int, *, close: bool = True) -> Iterator[Tournament]:
    """``locked_tournament`` for a change that may release a match.

    If it released its round's last, the round closes in a transaction of its own. That happens once
    this one has committed. So the match's events reach the streams without waiting for the round's
    standings and the next Deck Phase. Half a round's matches waited ~8 ms more
    (docs/performance.md). The process may die between the two. The rows then say the round is owed
    its close. The reconciler closes it (``tournaments.selectors.owed``). ``close``: false when the
    caller closes it itself. ``Tournament.round_owed`` says whether it must.
    """
    with locked_tournament(tournament_id) as tournament:
        yield tournament
    if close and tournament.round_owed is not None:
        round_close(tournament_id=tournament_id, round_number=tournament.round_owed)


def cancelled(tournament: Tournament) -> bool:
    """A cancelled tournament's matches are left as they are. Nothing plays or releases them."""
    return tournament.status == Status.CANCELLED


def side_seat(match: Match, side: str) -> Seat:
    return match.seat_a if side == "A" else match.seat_b


def live_sides(match: Match) -> frozenset[str]:
    """The sides whose seat answers its questions live: a human who chose to."""
    return frozenset(
        side
        for side in ("A", "B")
        if side_seat(match, side).kind == SeatKind.HUMAN
        and side_seat(match, side).answers_live
        and not side_seat(match, side).dropped
    )


def _run(match: Match, answers: list[object]) -> Outcome:
    policies = {
        side: question_policy(level_of(side_seat(match, side)), seed=match.seed, side=side)
        for side in ("A", "B")
    }
    return run_engine(match, answers, live=live_sides(match), policies=policies)


def match_play(*, match_id: int, tournament_id: int | None = None) -> None:
    """Play a scheduled match as far as it goes.

    It is idempotent: any other status is left alone. The task names the match's tournament, which
    saves a query. A wrong one finds no match. A match the engine cannot play raises, say for card
    data it cannot read. The task retries it. After its last attempt it is marked failed. A public
    ``match_failed`` event says so.
    """
    tournament_id = tournament_id or tournament_of_match(match_id)
    matches_play(tournament_id=tournament_id, match_ids=[match_id])


def matches_play(*, tournament_id: int, match_ids: list[int], closes: bool = True) -> int | None:
    """Play the scheduled matches of ``match_ids`` in id order, each as far as it goes.

    It is idempotent: a match of any other status is left alone. But if that match was its round's
    last and the round did not close, it closes now. ``closes``: false when the caller closes the
    round itself, with the next Deck Phase's bots in one transaction. ``tournaments.tasks`` does so.
    A bot tournament's rounds then follow one another in one task. The round owed its close is then
    returned, else ``None``.

    Each match is played, recorded and released in a transaction of its own. It takes the lock
    again. So its events reach the streams as soon as its own rows are durable. They no longer wait
    for the round's last match. A round's first match once waited for the whole round. Its events
    reach the two logs in one ``COPY`` each (``appends_gathered``). The log's rows are those of one
    task per match. Each match's events and its ``match_finished`` come in turn, and the round's
    close after the last. Each commits apart (``match_changes``). A match the engine cannot play
    raises, and rolls back only its own transaction. The caller then plays the rest one by one
    (``tournaments.tasks.play_matches``). So only the broken one fails.
    """
    owed: int | None = None
    for match_id in sorted(match_ids):
        with (
            match_changes(tournament_id, close=closes) as tournament,
            appends_gathered(),
        ):
            if cancelled(tournament):
                return None
            for match in _locked_matches(tournament, [match_id]):
                if match.status == MatchStatus.SCHEDULED:
                    _advance(tournament, match, _run(match, list(match.answers)))
                else:  # played already: this is a redelivery; was the round left open?
                    tournament.round_owed = _close_owed(tournament, match)
        if tournament.round_owed is not None:
            owed = tournament.round_owed
    return None if closes else owed


def _close_owed(tournament: Tournament, match: Match) -> int | None:
    """The round of this released match, if it is owed its close.

    That is, the match was the round's last and the round is still on. The process died between the
    release and the close.
    """
    if match.status != MatchStatus.FINISHED or match.round_open_besides:
        return None
    return match.round if round_on(tournament, match.round) else None


def match_failed(*, match_id: int, error: str) -> None:
    """The last attempt to play a match failed. Mark it, and say so publicly: no silent freeze."""
    with locked_tournament(tournament_of_match(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status not in (MatchStatus.SCHEDULED, MatchStatus.WAITING) or cancelled(
            tournament
        ):
            return
        match_fail(match, error)
        publish(
            tournament,
            "match_failed",
            {
                "match": match.pk,
                "park": match.park,
                "code": "match_failed",
                "message": "This match could not be played; an operator has been alerted.",
            },
        )
    log.error("Match %s failed: %s", match_id, error)


def match_retry(*, match_id: int) -> bool:
    """Play a failed match again, after its card data was fixed. ``True`` if it was queued."""
    with locked_tournament(tournament_of_match(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status != MatchStatus.FAILED or cancelled(tournament):
            return False
        match.status = MatchStatus.SCHEDULED
        match.error = ""
        match.save(update_fields=["status", "error"])
        publish(tournament, "match_retried", {"match": match.pk, "park": match.park})
        tournament_id = tournament.pk
        transaction.on_commit(
            lambda: enqueue_named("tournaments.tasks.play_match", match_id, tournament_id)
        )
    return True


def match_answer(*, match_id: int, seat: Seat | None, question: int, answer: object) -> Match:
    """A live seat answers the match's pending question."""
    with match_changes(tournament_of_match(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        # Who asks is checked before anything about the question is told (even its number).
        if seat is None or seat.pk not in (match.seat_a_id, match.seat_b_id):
            raise ForbiddenError(
                "not_your_question", _("Only a seat playing this match may answer.")
            )
        if cancelled(tournament):
            raise ConflictError("no_question", _("The tournament is cancelled."))
        waiting = match.question if match.status == MatchStatus.WAITING else None
        if waiting is not None and seat.pk != side_seat(match, waiting["side"]).pk:
            raise ForbiddenError("not_your_question", _("This question is for the other seat."))
        _pending_question(match, question)
        try:
            outcome = _run(match, [*match.answers, answer])
        except InvalidAnswer as error:
            raise answer_refusal(error, waiting, question) from error
        _advance(tournament, match, outcome)
    return match


def answer_refusal(
    error: InvalidAnswer, waiting: Mapping[str, object] | None, question: int
) -> ApplicationError:
    """The engine's refusal of an answer, in the player's language.

    The engine has no Django and words it in English. So its code chooses the words here.
    ``InvalidAnswer`` lists the codes.
    """
    asked = waiting or {}
    words = {
        "bad_kind": _("Answer with a list of options."),
        "not_offered": _("That is not an option of this question."),
        "duplicate": _("An option was chosen twice."),
        "not_a_permutation": _("Order every option of this question."),
        "too_many": _("Too many options: choose at most %(count)s.") % {"count": asked.get("max")},
        "too_few": _("Too few options: choose at least %(count)s.") % {"count": asked.get("min")},
    }
    message = words.get(error.code, error.message)
    return ApplicationError(error.code, message, {"question": question})


def match_answer_timeout(*, match_id: int, question: int) -> bool:
    """At the answer deadline the seat's policy answers. ``True`` if it did."""
    with match_changes(tournament_of_match(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status != MatchStatus.WAITING or (match.question or {}).get("seq") != question:
            return False
        if cancelled(tournament):
            return False
        if match.question_deadline and timezone.now() < match.question_deadline:
            return False
        default = list(match.question["default"])  # type: ignore[index]
        _advance(tournament, match, _run(match, [*match.answers, default]))
    return True


def _pending_question(match: Match, question: int) -> dict[str, object]:
    if match.status != MatchStatus.WAITING or match.question is None or not asked(match):
        raise ConflictError("no_question", _("This match is not waiting for an answer."))
    if match.question["seq"] != question:
        raise ConflictError(
            "stale_question",
            _("That question is no longer pending."),
            {"pending": match.question["seq"]},
        )
    return match.question


def _advance(tournament: Tournament, match: Match, outcome: Outcome) -> None:
    if isinstance(outcome, MatchResult):
        _record(tournament, match, outcome)
        return
    # The release clock: the match's events before the question are paced from now, none
    # before the log's last event is out, and the question is asked once the last of them is:
    # the board shows the situation it is about. The seat's time to answer runs from then.
    pace, now = _pace(), timezone.now()
    floor = release_floor(tournament, now)
    seconds = tournament.answer_deadline_seconds
    wait = match_wait(match, outcome, now=now, pace=pace, floor=floor, seconds=seconds)
    owner = side_seat(match, outcome.question.side)
    shown = {key: value for key, value in wait.question.items() if key != ASKED}
    # The deadline is public: spectators see "waiting for Bea (0:13)".
    waiting = {"match": match.pk, "seat": owner.number, "deadline": wait.deadline.isoformat()}
    publish_many(
        tournament,
        [
            *_event_items(match, wait.released),
            ("match_question", {"match": match.pk, "question": shown}, owner.number, wait.asked),
            ("match_waiting", waiting, None, wait.asked),
        ],
    )
    match_id, seq = match.pk, outcome.question.seq
    countdown = (wait.deadline - now).total_seconds()
    transaction.on_commit(
        lambda: enqueue_named(
            "tournaments.tasks.answer_timeout", match_id, seq, countdown=countdown
        )
    )


def _pace() -> float:
    return float(getattr(settings, "MATCH_EVENT_PACE_SECONDS", 0.0))


def _record(tournament: Tournament, match: Match, result: MatchResult) -> None:
    """Store the match and stream its events. Release it now (no pacing) or when they are out.

    Unpaced, the match's events and its ``match_finished`` reach the log in one write.
    """
    pace, now = _pace(), timezone.now()
    # The release clock: nothing logged later is released earlier, so the match's events are
    # paced from now but none before the log's last event is out; its own events, its views and
    # the stream agree on every instant. Its ``match_finished`` is logged now, for when it is due.
    floor = release_floor(tournament, now)
    released = match_store(match, result, now=now, pace=pace, floor=floor)
    state_changed("match_recorded", tournament_id=tournament.pk, match_id=match.pk)
    card_stats_of_match(tournament, match, result)  # in the recording transaction
    items = _event_items(match, released)
    if pace <= 0:
        _release(tournament, match, items)
        return
    due = release_due(match)
    publish_many(tournament, [*items, ("match_finished", _finished(match), None, due)])
    delay = (due - timezone.now()).total_seconds()
    match_id = match.pk
    transaction.on_commit(
        lambda: enqueue_named("tournaments.tasks.release_match", match_id, countdown=delay)
    )


def release_due(match: Match) -> datetime:
    """When a recorded match is released: one pace step after its last event is out."""
    assert match.result_visible_at is not None
    return match.result_visible_at + timedelta(seconds=_pace())


def _event_items(
    match: Match, released: Released
) -> list[tuple[str, dict[str, object], int | None, datetime]]:
    """The match's events as the tournament's live log holds them, each with its audience.

    Public events go to everyone, as a spectator sees them. A side's own questions, answers and
    looks go to that seat alone. The shuffled orders go nowhere.
    """
    items: list[tuple[str, dict[str, object], int | None, datetime]] = []
    for event, at in released:
        public = observe(event, None)
        if public is not None:
            items.append(("match_event", {"match": match.pk, "event": public}, None, at))
            continue
        for side in SIDES:  # the observer decides which seat, if any, it reaches
            if (own := observe(event, side)) is not None:
                owner = side_seat(match, side).number
                items.append(("match_event", {"match": match.pk, "event": own}, owner, at))
    return items


def match_release(*, match_id: int) -> bool:
    """Release a recorded match whose events are all out. ``True`` if it did. Idempotent."""
    with match_changes(tournament_of_match(match_id)) as tournament:
        match = _locked_match(tournament, match_id)
        if match.status != MatchStatus.RECORDED or not is_released(release_due(match)):
            return False
        if cancelled(tournament):
            return False
        _release(tournament, match, announced=True)
    return True


def _release(
    tournament: Tournament,
    match: Match,
    items: list[tuple[str, dict[str, object], int | None, datetime]] | None = None,
    *,
    announced: bool = False,
) -> None:
    """The result reaches the tournament: trophy, fans, decks, piles. The round may close.

    ``items``: the match's own events, when it is released as it is recorded (one log write).
    ``announced``: its ``match_finished`` was logged when it was recorded (paced). It was logged for
    the instant it is due, which has passed. So the stream shows it no later than these rows.
    """
    outcome = match.outcome
    assert outcome is not None  # a match released was recorded
    _apply_result(tournament, match, outcome)
    match_finish(match)
    tournament.changed_quietly = True  # the views read these rows: their version moves
    if not announced:
        finished = ("match_finished", _finished(match), None, timezone.now())
        publish_many(tournament, [*(items or []), finished])
    state_changed("match_released", tournament_id=tournament.pk, match_id=match.pk)
    if not match.round_open_besides:  # the round's last: it closes after the commit
        tournament.round_owed = match.round


def _finished(match: Match) -> dict[str, object]:
    """The public ``match_finished`` event of a released match."""
    winner = side_seat(match, (match.outcome or {})["winner"])
    return {"match": match.pk, "park": match.park, "winner": winner.number, "reason": match.reason}


def _apply_result(tournament: Tournament, match: Match, outcome: StoredOutcome) -> None:
    for side in ("A", "B"):
        seat = side_seat(match, side)
        seat.deck = list(outcome["decks_after"][side])
        seat.tokens += int(match.fans_gained.get(side, 0))
        seat.lost_previous = side != outcome["winner"]
        seat.version += 1
    rows.save_many([match.seat_a, match.seat_b], ["deck", "tokens", "lost_previous", "version"])
    taken = outcome["piles_taken"]
    consumed = {  # effects take from the top of this match's share of each pile
        uid
        for level, refs in match.setup["piles"].items()
        for uid, _ in refs[: taken.get(level, 0)]
    }
    if consumed:
        for pile in tournament.piles.select_for_update():
            pile.cards = [uid for uid in pile.cards if uid not in consumed]
            pile.save(update_fields=["cards"])
    removed = [uid for side in ("A", "B") for uid in outcome["removed"][side]]
    if removed:
        tournament.left_game = [*tournament.left_game, *removed]
        save_later(tournament, ["left_game"])
    if not tournament.is_final:
        _award_trophy(tournament, match, side_seat(match, outcome["winner"]))


def _award_trophy(tournament: Tournament, match: Match, winner: Seat) -> None:
    """The winner takes the park's trophy. The Robot's goes back to the box at 3-7 seats."""
    to_box = winner.is_robot and tournament.seat_count > 1
    where = {"tournament_id": tournament.pk, "park": match.park, "round": match.round}
    if rows.update_where(Trophy, where, winner_id=winner.pk, to_box=to_box) != 1:
        raise Trophy.DoesNotExist(f"No trophy of {match.park} in round {match.round}.")
