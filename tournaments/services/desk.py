"""One seat's Deck Phase as it is played.

``Desk`` reads its turn, deck and the piles under the lock. It takes the actions in memory and
writes the rows once. ``Tables`` serves several bots' phases in one task. It reads and writes their
rows together.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext as _

from infra import rows
from infra.errors import ConflictError
from tournaments.models import DraftTurn, Pile, Seat, Tournament
from tournaments.rules import draft as rules
from tournaments.rules.bots import Outlook, next_action
from tournaments.rules.cardstats import Row
from tournaments.rules.piles import Pile as PurePile
from tournaments.rules.seeds import stream
from tournaments.selectors.bots import level_of, outlook_for, rookie_noise
from tournaments.selectors.cards import card_facts
from tournaments.services.cardstats import card_stats_append, card_stats_draft_rows
from tournaments.services.common import rule_errors, save_later
from tournaments.services.events import publish_many

DecisionObserver = Callable[[str, str, float], None]
DECISION_OBSERVERS: list[DecisionObserver] = []
"""Called with (level, ``"decision"`` or ``"phase"``, CPU seconds) after each bot decision and
each whole bot Deck Phase (the ladder measures with it; nothing registers one in the server)."""


def _turn_row(tournament: Tournament, seat: Seat) -> DraftTurn:
    found = rows.locked_where(DraftTurn, {"seat_id": seat.pk, "round": tournament.round})
    if not found:  # else one row (turn_round_unique)
        raise ConflictError("not_drafting", _("This seat takes no part in this Deck Phase."))
    return found[0]


TURN_FIELDS = ("state", "finished", "actions", "auto_played")
SEAT_FIELDS = ("deck", "tokens", "auto_played", "missed_deadlines", "version")


class Tables:
    """The Deck Phases of several seats of one tournament, played in turn under one lock.

    The phase's turns, every seat and the piles are read once. Each statement is a round trip. A
    bot's phase cost six. What they change is written once, a statement per table (``write``).
    Holding every turn of the phase, it also tells whether the phase is done (``done``).

    The seats' desks share the piles in memory. So each draws from them as the seat before it left
    them. A bot's outlook reads its rivals' decks from ``seats``, as saved. It is the same game as
    when each phase read and wrote its own rows.
    """

    def __init__(
        self,
        tournament: Tournament,
        seats: list[Seat],
        playing: list[int],
        turns: list[DraftTurn] | None = None,
    ) -> None:
        """``seats``: every seat, read under the lock. ``playing``: the ids of those to play.

        ``turns``: every turn of the phase, if this block opened it and has not written them yet.
        ``write`` then inserts them, as played. Else they are read and locked, the other seats' too.
        Every writer of a turn holds the tournament's lock.
        """
        self.tournament = tournament
        self.seats = {seat.number: seat for seat in seats}
        self.playing = set(playing)
        if turns is None:
            turns = list(
                DraftTurn.objects.select_for_update().filter(
                    seat_id__in=[seat.pk for seat in seats], round=tournament.round
                )
            )
        self.turns = {row.seat_id: row for row in turns}
        self.pile_rows = {
            p.level: p for p in rows.locked_where(Pile, {"tournament_id": tournament.pk})
        }
        self.piles = {
            level: PurePile(level, list(p.cards), list(p.discard))
            for level, p in self.pile_rows.items()
        }
        self.saved: dict[int, tuple[DraftTurn, Seat]] = {}
        self.stats: list[Row] = []

    def done(self) -> bool:
        """Whether every seat has finished the phase, as the desks left its turns."""
        return all(row.finished for row in self.turns.values())

    def write(self, *, phase_moves: bool = False) -> None:
        """Write the saved turns and seats, changed piles and finished phases' card statistics.

        One statement each; new turns are inserted. ``phase_moves``: the phase or round changed in
        this block. That moves every seat's version. So each seat is written with it. It is written
        as read under the lock, or as its desk saved it. The lock then leaves the seats alone
        (``Tournament.seats_moved``).
        """
        stored = [row for row, _seat in self.saved.values() if row.pk is not None]
        DraftTurn.objects.bulk_create([row for row in self.turns.values() if row.pk is None])
        rows.save_many(stored, TURN_FIELDS)
        seats = [seat for _row, seat in self.saved.values()]
        if phase_moves:
            seats = list(self.seats.values())
            for seat in seats:
                seat.version += 1
            self.tournament.seats_moved = True
        rows.save_many(seats, SEAT_FIELDS)
        changed = []
        for level, pile in self.pile_rows.items():
            cards, discard = self.piles[level].cards, self.piles[level].discard
            if (cards, discard) != (pile.cards, pile.discard):
                pile.cards, pile.discard = list(cards), list(discard)
                changed.append(pile)
        rows.save_many(changed, ["cards", "discard"])
        card_stats_append(self.stats)


class Desk:
    """One seat's Deck Phase loaded once under the lock: its turn, deck and the piles.

    Actions change it in memory. ``save`` writes the turn, the seat and the piles once. It logs one
    public progress event per action, however many actions were taken. A bot's whole phase is one
    load and one save. With ``tables`` it reads and writes through them instead.
    """

    def __init__(
        self,
        tournament: Tournament,
        seat: Seat,
        *,
        fresh: bool = False,
        tables: Tables | None = None,
    ) -> None:
        """``fresh``: ``seat`` was read under this lock. Else it is read again."""
        self.tournament, self.seat, self.tables = tournament, seat, tables
        self.row = _turn_row(tournament, seat) if tables is None else _shared_turn(tables, seat)
        self.turn = rules.turn_from_data(self.row.state)
        if not fresh:
            seat.refresh_from_db()
        if tables is None:
            self.pile_rows = {
                p.level: p for p in rows.locked_where(Pile, {"tournament_id": tournament.pk})
            }
            piles = {
                level: PurePile(level, list(p.cards), list(p.discard))
                for level, p in self.pile_rows.items()
            }
        else:
            self.pile_rows, piles = tables.pile_rows, tables.piles
        self.table = rules.Table(
            deck=list(seat.deck), piles=piles, cards=card_facts(tournament), rng=self._rng()
        )
        self.done: list[str] = []
        self.outlook: Outlook | None = None

    def _rng(self) -> random.Random:
        """Each action draws from a stream of its own: seat, round, action number."""
        actions = self.row.actions + len(getattr(self, "done", ()))
        return stream(
            self.tournament.seed, "draft", self.tournament.round, self.seat.number, actions
        )

    @rule_errors
    def act(self, action: str, arguments: dict[str, object]) -> None:
        if action not in rules.ACTIONS:
            message = _("No Deck Phase action %(action)r.") % {"action": action}
            raise ConflictError("unknown_action", message)
        self.table.rng = self._rng()
        rules.ACTIONS[action](self.turn, self.table, **arguments)
        self.turn.moves.append([action, dict(arguments)])
        self.done.append(action)

    def act_as_bot(self) -> bool:
        """The seat's bot level's next action. ``False`` when it has nothing left to do."""
        started = time.process_time()
        if self.outlook is None:
            seats = self.tables.seats if self.tables else None
            self.outlook = outlook_for(self.tournament, self.seat, level_of(self.seat), seats=seats)
        self.table.rng = self._rng()
        noise = rookie_noise(self.tournament, self.seat, self.row.actions + len(self.done))
        chosen = next_action(self.turn, self.table, outlook=self.outlook, noise=noise)
        observe_decision(self.outlook.level, "decision", time.process_time() - started)
        if chosen is None:
            return False
        self.act(*chosen)
        return True

    def _write(self) -> None:
        """The turn, the seat and the piles it changed, now."""
        rows.save_fields(self.row, TURN_FIELDS)
        rows.save_fields(self.seat, SEAT_FIELDS)
        for level, pile in self.pile_rows.items():  # a phase touches one pile or two
            cards, discard = self.table.piles[level].cards, self.table.piles[level].discard
            if (cards, discard) != (pile.cards, pile.discard):  # the rows keep what was read
                rows.update_where(Pile, {"id": pile.pk}, cards=cards, discard=discard)

    def save(self, *, auto: bool) -> DraftTurn:
        row, seat, table = self.row, self.seat, self.table
        row.state = rules.turn_to_data(self.turn)
        if self.turn.finished and not row.finished:  # once per phase, in its transaction
            added = card_stats_draft_rows(self.tournament, seat, self.turn)
            if self.tables is None:
                card_stats_append(added)
            else:
                self.tables.stats += added
        row.finished = self.turn.finished
        row.actions += len(self.done)
        row.auto_played = row.auto_played or auto
        seat.deck = table.deck
        seat.tokens += table.fans
        seat.auto_played = seat.auto_played or auto
        if self.turn.finished and not auto and not seat.dropped:
            seat.missed_deadlines = 0  # only deadlines missed in a row count
        seat.version += 1
        if self.tables is None:
            self._write()
        else:
            self.tables.saved[seat.pk] = (row, seat)
        if table.left_game:
            self.tournament.left_game = [*self.tournament.left_game, *table.left_game]
            save_later(self.tournament, ["left_game"])
        now = timezone.now()
        progress = [{"seat": seat.number, "did": rules.PUBLIC_PROGRESS[d]} for d in self.done]
        publish_many(
            self.tournament, [("seat_progress", payload, None, now) for payload in progress]
        )
        return row


def _shared_turn(tables: Tables, seat: Seat) -> DraftTurn:
    if seat.pk not in tables.turns or seat.pk not in tables.playing:
        raise ConflictError("not_drafting", _("This seat takes no part in this Deck Phase."))
    return tables.turns[seat.pk]


def observe_decision(level: str, what: str, seconds: float) -> None:
    for observer in DECISION_OBSERVERS:
        observer(level, what, seconds)
