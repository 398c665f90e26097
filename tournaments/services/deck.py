"""The Deck Phase: opening it, every seat's draft actions, bots, the deadline, closing it."""

from __future__ import annotations

import time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.bulk import appends_gathered
from infra.errors import ConflictError, ForbiddenError
from infra.taskqueue import enqueue_named
from matches.models import Match, MatchStatus
from tournaments.models import DraftTurn, Opening, Seat, SeatKind, Status, Tournament
from tournaments.selectors.viewers import require_seat
from tournaments.services.common import locked_tournament, require_version
from tournaments.services.desk import Desk, Tables, observe_decision
from tournaments.services.events import publish
from tournaments.services.rounds import match_phase_start, round_owed_close

DROP_AFTER = 2
"""Deadlines a person's seat may miss in a row before a steady bot plays it."""


def seat_act(
    *,
    tournament_id: int,
    seat: Seat | None,
    action: str,
    expected_version: int | None = None,
    **arguments: object,
) -> DraftTurn:
    """One Deck Phase action of a seat: ``choose``, ``draw``, ``redraw``, ``pick``, …"""
    with locked_tournament(tournament_id) as tournament:
        seat = require_seat(seat, tournament)
        # The seat row once under the lock (its version, whether it is dropped, its deck): the
        # one read with the token was taken before the lock.
        seat.refresh_from_db()
        require_version(seat, expected_version)
        if tournament.status != Status.DECK:
            raise ConflictError("wrong_phase", _("This is not a Deck Phase."))
        if seat.kind != SeatKind.HUMAN:
            raise ForbiddenError("not_your_seat", _("Bots and the Robot play by themselves."))
        if seat.dropped:
            raise ConflictError("seat_dropped", _("A bot plays this seat: take it back first."))
        row = _apply(tournament, seat, action, arguments)
        _close_if_done(tournament)
    assert row is not None
    return row


def _apply(
    tournament: Tournament, seat: Seat, action: str, arguments: dict[str, object]
) -> DraftTurn:
    """Take one action of a seat read under the lock."""
    desk = Desk(tournament, seat, fresh=True)
    desk.act(action, arguments)
    return desk.save(auto=False)


def autoplay(
    tournament: Tournament,
    seat: Seat,
    *,
    auto: bool,
    fresh: bool = False,
    tables: Tables | None = None,
) -> None:
    """Play the rest of ``seat``'s Deck Phase by its bot level.

    The caller holds the lock. ``fresh``: ``seat`` was read under it. ``tables``: read and write
    through them.
    """
    started = time.process_time()
    desk = Desk(tournament, seat, fresh=fresh, tables=tables)
    for _turn in range(100):
        if not desk.act_as_bot():
            if desk.done:
                desk.save(auto=auto)
            level = desk.outlook.level if desk.outlook else ""
            observe_decision(level, "phase", time.process_time() - started)
            return
    raise RuntimeError("the bot policy did not finish its Deck Phase")


BOTS_CPU_SECONDS = 0.1
"""CPU one ``bot_deck_phases`` task spends under the lock before it hands the rest on."""


def bot_deck_phases(
    *, tournament_id: int, seat_ids: list[int], close_round: int | None = None
) -> list[int]:
    """Bot seats, or dropped seats' stand-ins, take their whole Deck Phases.

    They play in seat order, under one lock. It is idempotent: a finished turn is left alone. If it
    closed the Deck Phase, it returns the ids of the matches it scheduled. They are not queued. The
    caller plays them once this has committed. So the task that closes a phase plays the round. That
    is one hop fewer. Run again after the phase closed, it returns the round's matches still
    scheduled. That happens when its task is redelivered, the worker killed while playing them.

    Many bots share one task and one lock, not one each. Once ``BOTS_CPU_SECONDS`` are spent, the
    rest go to a new task. So a person acting in the same tournament never waits long for the lock.
    A champion's phase costs ~0.2 s, a rookie's a few ms.

    ``close_round``: first close this round, whose last match was released, if it is still on. Then
    play the bots of the Deck Phase that opens, in the same transaction. ``seat_ids`` is then
    ignored. So a bot tournament's round close costs no commit of its own.
    """
    with locked_tournament(tournament_id) as tournament, appends_gathered():
        opening = Opening()
        if close_round is not None:
            tournament.opening = opening
            seat_ids = _round_closed(tournament, close_round)
        started = time.process_time()
        rest: list[int] = []
        every = opening.seats or list(tournament.seats.order_by("number"))
        wanted = set(seat_ids)
        seats = [seat for seat in every if seat.pk in wanted]
        playing = [seat.pk for seat in seats if seat.kind == SeatKind.BOT or seat.dropped]
        tables = None
        if tournament.status == Status.DECK:
            tables = Tables(tournament, every, playing, opening.turns)
        for index, seat in enumerate(seats):  # the first seat is always played: no endless relay
            if rest or (index and time.process_time() - started > BOTS_CPU_SECONDS):
                rest.append(seat.pk)
            elif tables is not None and seat.pk in playing:
                autoplay(tournament, seat, auto=False, fresh=True, tables=tables)
        scheduled: list[Match] = []
        if tables is not None:
            done = tables.done()  # the Match Phase starts: a new phase, as a new round is
            tables.write(phase_moves=done or opening.turns is not None)
            if done:
                piles = {level: pile.cards for level, pile in tables.pile_rows.items()}
                scheduled = match_phase_start(
                    tournament, queue=False, seats=every, piles=piles, trophies=opening.trophies
                )
        if tournament.status == Status.MATCH and not scheduled:
            scheduled = list(
                tournament.matches.filter(round=tournament.round, status=MatchStatus.SCHEDULED)
            )
        if rest:
            transaction.on_commit(
                lambda: enqueue_named("tournaments.tasks.bot_deck_phases", tournament_id, rest)
            )
    return [match.pk for match in scheduled]


def _round_closed(tournament: Tournament, round_number: int) -> list[int]:
    """Close the round whose matches were all released, if it is still on.

    Return the bot seats of the Deck Phase it opened. The caller holds the lock. It has set
    ``tournament.opening``, which the close fills in.
    """
    opening = tournament.opening
    assert opening is not None
    round_owed_close(tournament, round_number)
    tournament.opening = None
    return opening.bots


def enforce_deck_deadline(*, tournament_id: int, round_number: int) -> bool:
    """At the deadline, finish every open turn by the bot policy.

    ``True`` if it acted.
    """
    with locked_tournament(tournament_id) as tournament:
        deadline = tournament.phase_deadline
        if tournament.status != Status.DECK or tournament.round != round_number:
            return False
        if deadline is None or timezone.now() < deadline:
            return False
        open_rows = DraftTurn.objects.filter(
            seat__tournament=tournament, round=round_number, finished=False
        )
        for row in open_rows.select_related("seat"):
            _missed(tournament, row.seat)
            autoplay(tournament, row.seat, auto=True)
        _close_if_done(tournament)
    return True


def _missed(tournament: Tournament, seat: Seat) -> None:
    """A person's seat missed a deadline. At ``DROP_AFTER`` in a row, a steady bot takes it."""
    if seat.kind != SeatKind.HUMAN or seat.dropped:
        return
    seat.missed_deadlines += 1
    if seat.missed_deadlines >= DROP_AFTER:
        seat.dropped = True
        publish(tournament, "seat_dropped", {"seat": seat.number, "reason": "missed_deadlines"})
    seat.save(update_fields=["missed_deadlines", "dropped"])


def play_dropped_seat(tournament: Tournament, seat: Seat) -> None:
    """A seat just dropped in a Deck Phase: its stand-in plays the rest of it at once."""
    if tournament.status != Status.DECK:
        return
    if DraftTurn.objects.filter(seat=seat, round=tournament.round, finished=False).exists():
        autoplay(tournament, seat, auto=True)
        _close_if_done(tournament)


def _close_if_done(
    tournament: Tournament, *, queue: bool = True, seats: list[Seat] | None = None
) -> list[Match]:
    """When the last seat has finished, start the Match Phase, exactly once, under the lock.

    Its matches are queued unless ``queue`` is false. ``seats``: every seat, as written, if the
    caller read them.
    """
    if tournament.status != Status.DECK:
        return []
    if DraftTurn.objects.filter(
        seat__tournament=tournament, round=tournament.round, finished=False
    ).exists():
        return []
    return match_phase_start(tournament, queue=queue, seats=seats)
