"""The Deck Phase: opening it, every seat's draft actions, bots, the deadline, closing it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config import rows
from config.errors import ConflictError, ForbiddenError
from config.taskqueue import enqueue_named
from tournaments.models import DraftTurn, Pile, Seat, SeatKind, Status, Tournament
from tournaments.rules import draft as rules
from tournaments.rules.bots import Outlook, next_action
from tournaments.rules.piles import Pile as PurePile
from tournaments.rules.seeds import stream
from tournaments.selectors.bots import level_of, outlook_for, rookie_noise
from tournaments.selectors.cards import card_facts
from tournaments.selectors.viewers import require_seat
from tournaments.services.cardstats import card_stats_of_draft
from tournaments.services.common import locked_tournament, require_version, rule_errors
from tournaments.services.events import publish, publish_many
from tournaments.services.rounds import match_phase_start

DROP_AFTER = 2
"""Deadlines a person's seat may miss in a row before a steady bot plays it."""

DecisionObserver = Callable[[str, str, float], None]
DECISION_OBSERVERS: list[DecisionObserver] = []
"""Called with (level, ``"decision"`` or ``"phase"``, CPU seconds) after each bot decision and
each whole bot Deck Phase (the ladder measures with it; nothing registers one in the server)."""


# What the other seats may know of a seat's Deck Phase: that it acted, never what it saw or took.
PUBLIC_PROGRESS = {
    "choose": "chose",
    "draw": "drew",
    "redraw": "redrew",
    "pick": "picked",
    "resolve": "picked",
    "remove": "removed",
    "finish": "finished",
}


def seat_act(
    *,
    tournament_id: int,
    seat: Seat | None,
    action: str,
    expected_version: int | None = None,
    **arguments: Any,
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


def _turn_row(tournament: Tournament, seat: Seat) -> DraftTurn:
    found = rows.locked_where(DraftTurn, {"seat_id": seat.pk, "round": tournament.round})
    if not found:  # else one row (turn_round_unique)
        raise ConflictError("not_drafting", _("This seat takes no part in this Deck Phase."))
    return found[0]


class Desk:
    """One seat's Deck Phase loaded once under the lock: its turn, deck and the piles.

    Actions change it in memory; ``save`` writes the turn, the seat and the piles once and logs
    one public progress event per action, however many actions were taken (a bot's whole phase
    is one load and one save).
    """

    def __init__(self, tournament: Tournament, seat: Seat, *, fresh: bool = False) -> None:
        """``fresh``: ``seat`` was read under this lock (else it is read again)."""
        self.tournament, self.seat = tournament, seat
        self.row = _turn_row(tournament, seat)
        self.turn = rules.turn_from_data(self.row.state)
        if not fresh:
            seat.refresh_from_db()
        self.pile_rows = {
            p.level: p for p in rows.locked_where(Pile, {"tournament_id": tournament.pk})
        }
        piles = {
            level: PurePile(level, list(p.cards), list(p.discard))
            for level, p in self.pile_rows.items()
        }
        self.table = rules.Table(
            deck=list(seat.deck), piles=piles, cards=card_facts(tournament), rng=self._rng()
        )
        self.done: list[str] = []
        self.outlook: Outlook | None = None

    def _rng(self) -> random.Random:
        """Each action draws from a stream of its own (seat, round, action number)."""
        actions = self.row.actions + len(getattr(self, "done", ()))
        return stream(
            self.tournament.seed, "draft", self.tournament.round, self.seat.number, actions
        )

    @rule_errors
    def act(self, action: str, arguments: dict[str, Any]) -> None:
        if action not in rules.ACTIONS:
            message = _("No Deck Phase action %(action)r.") % {"action": action}
            raise ConflictError("unknown_action", message)
        self.table.rng = self._rng()
        rules.ACTIONS[action](self.turn, self.table, **arguments)
        self.done.append(action)

    def act_as_bot(self) -> bool:
        """The seat's bot level's next action; ``False`` when it has nothing left to do."""
        started = time.process_time()
        if self.outlook is None:
            self.outlook = outlook_for(self.tournament, self.seat, level_of(self.seat))
        self.table.rng = self._rng()
        noise = rookie_noise(self.tournament, self.seat, self.row.actions + len(self.done))
        chosen = next_action(self.turn, self.table, outlook=self.outlook, noise=noise)
        _observe(self.outlook.level, "decision", time.process_time() - started)
        if chosen is None:
            return False
        self.act(*chosen)
        return True

    def save(self, *, auto: bool) -> DraftTurn:
        row, seat, table = self.row, self.seat, self.table
        row.state = rules.turn_to_data(self.turn)
        if self.turn.finished and not row.finished:  # once per phase, in its transaction
            card_stats_of_draft(self.tournament, seat, self.turn)
        row.finished = self.turn.finished
        row.actions += len(self.done)
        row.auto_played = row.auto_played or auto
        rows.save_fields(row, ["state", "finished", "actions", "auto_played"])
        seat.deck = table.deck
        seat.tokens += table.fans
        seat.auto_played = seat.auto_played or auto
        if self.turn.finished and not auto and not seat.dropped:
            seat.missed_deadlines = 0  # only deadlines missed in a row count
        seat.version += 1
        rows.save_fields(seat, ["deck", "tokens", "auto_played", "missed_deadlines", "version"])
        for level, pile in self.pile_rows.items():  # a phase touches one pile or two
            cards, discard = table.piles[level].cards, table.piles[level].discard
            if (cards, discard) != (pile.cards, pile.discard):  # the rows keep what was read
                rows.update_where(Pile, {"id": pile.pk}, cards=cards, discard=discard)
        if table.left_game:
            self.tournament.left_game = [*self.tournament.left_game, *table.left_game]
            self.tournament.save(update_fields=["left_game"])
        now = timezone.now()
        publish_many(
            self.tournament,
            [
                ("seat_progress", {"seat": seat.number, "did": PUBLIC_PROGRESS[done]}, None, now)
                for done in self.done
            ],
        )
        return row


def _apply(tournament: Tournament, seat: Seat, action: str, arguments: dict[str, Any]) -> DraftTurn:
    """Take one action of a seat read under the lock."""
    desk = Desk(tournament, seat, fresh=True)
    desk.act(action, arguments)
    return desk.save(auto=False)


def _observe(level: str, what: str, seconds: float) -> None:
    for observer in DECISION_OBSERVERS:
        observer(level, what, seconds)


def autoplay(tournament: Tournament, seat: Seat, *, auto: bool, fresh: bool = False) -> None:
    """Play the rest of ``seat``'s Deck Phase by its bot level (the caller holds the lock;
    ``fresh``: ``seat`` was read under it)."""
    started = time.process_time()
    desk = Desk(tournament, seat, fresh=fresh)
    for _turn in range(100):
        if not desk.act_as_bot():
            if desk.done:
                desk.save(auto=auto)
            level = desk.outlook.level if desk.outlook else ""
            _observe(level, "phase", time.process_time() - started)
            return
    raise RuntimeError("the bot policy did not finish its Deck Phase")


BOTS_CPU_SECONDS = 0.1
"""CPU one ``bot_deck_phases`` task spends under the lock before it hands the rest on."""


def bot_deck_phases(*, tournament_id: int, seat_ids: list[int]) -> None:
    """Bot seats, or dropped seats' stand-ins, take their whole Deck Phases, in seat order,
    under one lock (idempotent: a finished turn is left alone).

    One task and one lock for many bots instead of one each; once ``BOTS_CPU_SECONDS`` are
    spent the rest go to a new task, so a person acting in the same tournament never waits
    long for the lock (a champion's phase costs ~0.2 s, a rookie's a few ms).
    """
    with locked_tournament(tournament_id) as tournament:
        started = time.process_time()
        rest: list[int] = []
        seats = Seat.objects.filter(pk__in=seat_ids, tournament=tournament).order_by("number")
        for index, seat in enumerate(seats):  # the first seat is always played: no endless relay
            if rest or (index and time.process_time() - started > BOTS_CPU_SECONDS):
                rest.append(seat.pk)
            elif tournament.status == Status.DECK and (seat.kind == SeatKind.BOT or seat.dropped):
                autoplay(tournament, seat, auto=False, fresh=True)
        _close_if_done(tournament)
        if rest:
            transaction.on_commit(
                lambda: enqueue_named("tournaments.tasks.bot_deck_phases", tournament_id, rest)
            )


def enforce_deck_deadline(*, tournament_id: int, round_number: int) -> bool:
    """At the deadline, finish every open turn by the bot policy; ``True`` if it acted."""
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
    """A person's seat missed a deadline; at ``DROP_AFTER`` in a row a steady bot takes it."""
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


def _close_if_done(tournament: Tournament) -> None:
    """When the last seat has finished, the Match Phase starts (exactly once, under the lock)."""
    if tournament.status != Status.DECK:
        return
    if DraftTurn.objects.filter(
        seat__tournament=tournament, round=tournament.round, finished=False
    ).exists():
        return
    match_phase_start(tournament)
