"""One match of Challengers! (rules.md §2.3-2.4, §4, §5): ``play_match(setup, seed, policies)``.

Fast (``record=False``) and recorded play are one engine. The match's ``EventLog`` (``events.py``)
builds the events. The attack loop builds its ``attack`` events itself. The log exists only while
recording. So every event is built under an ``if log is not None:`` guard.

Sides are ints (0 = "A", 1 = "B"). Cards are ints indexing per-match lists (``spec_of``, ``uid``,
``lasting``, ``during``). A deck is a list, top card last. A bench is 6 slots, each ``None`` or a
seat ``[name, cards, pad]``. ``pad`` is the second slot a Troll seat blocks, or -1.

**Decisions (rules):**

* Opening: the opener's card takes the flag. Its on-reveal effect resolves, then its "takes the
  flag" effect. The opening is an attack on the empty flag, won by the first card.
* A flag change: (1) the defending card's Flag loss effect resolves. (2) Its stack goes to the
  bench, top card first. A card that finds no seat stays unplaced. Its owner loses the match. (3)
  The attacker's cards stack, last on top, and During the attack bonuses end. The new flag card's
  "takes the flag" effect resolves.
* After each reveal: the card's effect, then a flag-holding card's per-reveal effect (Yeti). Then
  the attack total is compared with the defence. A No flag win effect runs only if the attack has
  not won.
* A card's power never drops below 0. Streamer's factor multiplies every bonus it receives.
* Winter Park: a card going to the bench may be frozen instead. Its owner is asked when a frozen
  seat can take it. A card redirected by its own rule (the Backpacker) is not asked about. The Robot
  never has frozen seats. Frozen cards are invisible to effects and return to the deck after.
* A match ends after ``REVEAL_LIMIT`` reveals, which no real deck reaches. The flag holder wins with
  reason ``reveal_limit``. This guard makes every match terminate.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any, Final

from matches.engine import chance
from matches.engine.cards import CardSpec, UnknownCard, icon_of_set, load_catalogue, resolve_card
from matches.engine.effects import ATTACKING, HOLDING
from matches.engine.events import Attack, EventLog, Parts, seen_by
from matches.engine.model import (
    RULES_VERSIONS,
    SIDES,
    InvalidAnswer,
    InvalidSetup,
    MatchResult,
    MatchSetup,
    PendingQuestion,
    Policy,
    Position,
    Question,
    Ref,
    SideView,
)
from matches.engine.policies import DefaultPolicy
from matches.engine.questions import PERMUTATION_KINDS, PROMPTS, check_answer
from matches.engine.table import Table, get_table

# ``Final``: the compiled engine reads these without a lookup in the module's namespace.
REVEAL_LIMIT: Final = 5000
SEATS: Final = 6
_DEFAULT_POLICY: Final = DefaultPolicy()
_FIRST: Final = operator.itemgetter(0)
_TABLES: Final[dict[tuple[int, Any, int], tuple[Mapping[str, CardSpec], Table]]] = {}
# A match outside Winter Park: no side may freeze, its frozen seats (shared, never filled).
_NO_FREEZE: Final = (False, False)
_NOT_FROZEN: Final[list[list[list[int]]]] = [[[], []], [[], []]]
_NOT_FROZEN_POWER: Final = [[0, 0], [0, 0]]


class _End(Exception):
    """The match is over (``Match.winner``/``reason`` are set)."""


class _Pause(Exception):
    """A side without a policy must answer ``question``."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.kind)
        self.question = question


class Match:
    """One match being played.

    ``play_match`` plays a whole one. ``Match.at`` puts one in a given position, to play on a step
    at a time (``play_opening``, ``play_attack``, ``play_to_end``). Look at the cards by card id
    (``deck``, ``bench``, ``stack``, ``exhaust``…). ``uid`` and ``key_of`` name a card."""

    __slots__ = (
        "answers",
        "attack",
        "attacker",
        "auras",
        "bench",
        "can_freeze",
        "chance",
        "deck",
        "default_policy",
        "during",
        "events",
        "exhaust",
        "fans",
        "frozen",
        "frozen_power",
        "given",
        "holder",
        "lasting",
        "log",
        "lost_previous",
        "pending",
        "piles",
        "policies",
        "powers_seen",
        "reason",
        "removed",
        "reveals",
        "round_number",
        "said",
        "seat_of",
        "seed",
        "setup",
        "spec_of",
        "specs",
        "stack",
        "table",
        "taken",
        "tokens_at_start",
        "trophies",
        "uid",
        "uids",
        "unplaced",
        "version",
        "winner",
    )

    def __init__(
        self,
        setup: MatchSetup,
        seed: int | str | None,
        policies: Mapping[str, Policy | None] | None,
        record: bool,
        answers: Sequence[object],
        chance: Mapping[str, Any] | None = None,
        position: Position | None = None,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.chance = chance
        specs = load_catalogue() if setup.specs is None else setup.specs
        self.specs = specs
        self.round_number = setup.round_number
        if not (1 <= self.round_number <= 7):
            raise InvalidSetup("bad_round", f"Round must be 1-7 (got {setup.round}).")
        if setup.rules_version not in RULES_VERSIONS:
            known = ", ".join(map(str, RULES_VERSIONS))
            message = f"Rules version must be one of {known} (got {setup.rules_version!r})."
            raise InvalidSetup("bad_rules_version", message)
        self.table = self._table(setup, specs, position)

        # The cards: deck A's are 0..na-1, deck B's the next; a deck lists its top card last.
        decks = setup.decks
        if "A" not in decks or "B" not in decks:
            raise InvalidSetup("missing_deck", "A match needs the decks of sides A and B.")
        refs = [*decks["A"], *decks["B"]]
        na, n = len(decks["A"]), len(refs)
        self.spec_of = self._specs(refs)
        self.uid: list[Any] = list(map(_FIRST, refs))
        self.deck = [list(range(na - 1, -1, -1)), list(range(n - 1, na - 1, -1))]
        self.uids: set[Any] = set(self.uid)
        if len(self.uids) != n:
            raise InvalidSetup("duplicate_uid", "A card uid appears twice in the decks.")
        self.lasting: list[int] = [0] * n  # bonuses a card got when revealed
        self.during: list[int] = [0] * n  # During the attack bonuses (read while attacking)
        self.version = 0  # bumped whenever a card moves or fans change: powers may have changed
        self.piles = setup.piles
        self.taken = {"A": 0, "B": 0, "C": 0}  # cards effects took from each level pile

        # Where the cards are besides the decks.
        self.bench: list[list[Any]] = [[None] * SEATS, [None] * SEATS]
        self.seat_of: list[dict[str, int]] = [{}, {}]  # a seat's name -> its slot
        self.auras: list[list[int]] = [[], []]  # the From the bench cards on each bench
        self.exhaust: list[list[int]] = [[], []]
        self.removed: list[list[int]] = [[], []]
        self.unplaced: list[list[int]] = [[], []]  # a card no bench seat could take
        self.stack: list[int] = []  # the flag holder's cards, bottom → top
        self.attack: list[int] = []  # the attacker's cards revealed in this attack
        self.holder = 0
        self.attacker = 1
        self.pending: list[list[int] | None] = [None, None]  # [lasting, during] for the next card

        # What the sides bring from the tournament: trophies, fan tokens, a lost last match.
        trophies, fans, lost = setup.trophies, setup.fans, setup.lost_previous
        self.trophies: tuple[int, int] = (
            (trophies.get("A", 0), trophies.get("B", 0)) if trophies else (0, 0)
        )
        self.tokens_at_start: tuple[int, int] = (
            (fans.get("A", 0), fans.get("B", 0)) if fans else (0, 0)
        )
        self.lost_previous: tuple[bool, bool] = (
            (lost.get("A", False), lost.get("B", False)) if lost else (False, False)
        )
        self.fans = [0, 0]  # gained in this match
        self.reveals = 0
        self.winner = -1
        self.reason = ""

        # Who answers each side's questions: the given answers first, then its policy.
        self.given = tuple(answers)
        self.answers: list[Any] = []
        if policies:
            a, b = policies.get("A", _DEFAULT_POLICY), policies.get("B", _DEFAULT_POLICY)
        else:
            a = b = _DEFAULT_POLICY
        self.policies: list[Policy | None] = [a, b]
        # A side the default policy answers: once the given answers are used up, its questions
        # are not built (only recorded); the default is valid by construction.
        self.default_policy = (type(a) is DefaultPolicy, type(b) is DefaultPolicy)

        self.events: list[Any] = []  # each an ``events.Event`` (``MatchResult`` keeps dicts)
        self.log: EventLog | None = None
        # ``powers``' last count: version, holder, flag card, its lasting bonus, defence;
        # attacking cards, the total of all but the newest, the total, the newest's lasting.
        self.powers_seen = [-1, -1, -1, 0, -1, 0, -1, -1, 0]
        # What the events last stated (``stated``): defence, attack total, each deck's count.
        self.said = [-1, -1, len(self.deck[0]), len(self.deck[1])]
        self.can_freeze: Sequence[bool] = _NO_FREEZE
        if position is not None:
            self._place(position)  # before the park's rules and the recording start
        if setup.park == "winter":  # who may freeze cards (not the Robot), the frozen seats
            robot = setup.robot
            self.can_freeze = (robot != "A", robot != "B")
            self.frozen: list[list[list[int]]] = [[[], []], [[], []]]
            self.frozen_power = [[0, 0], [0, 0]]
        else:  # nobody can freeze: the frozen seats stay empty, so every match shares them
            self.frozen, self.frozen_power = _NOT_FROZEN, _NOT_FROZEN_POWER
        if record:
            self.log = EventLog(
                self.events, self.uid, self.spec_of, self.table, self.deck, self.stated
            )

    @classmethod
    def at(
        cls,
        setup: MatchSetup,
        position: Position,
        policies: Mapping[str, Policy | None] | None = None,
        *,
        record: bool = True,
        answers: Sequence[object] = (),
    ) -> Match:
        """A match put in ``position``, decks in setup order.

        It has no start: no ``start`` event, shuffle or toss. Play it on with ``play_opening``,
        ``play_attack`` and ``play_to_end``."""
        return cls(setup, None, policies, record, answers, position=position)

    # ------------------------------------------------------------------ setup

    def _table(
        self, setup: MatchSetup, specs: Mapping[str, CardSpec], position: Position | None
    ) -> Table:
        """This match's card table (cached for its specs, sets in play and round)."""
        given = setup.sets_in_play
        if given:
            try:
                key = (id(specs), given, self.round_number)
                hit = _TABLES.get(key)
            except TypeError:  # an unhashable sequence
                return get_table(specs, frozenset(given), self.round_number)
            if hit is not None and hit[0] is specs:
                return hit[1]
            table = get_table(specs, frozenset(given), self.round_number)
            if len(_TABLES) >= 64:
                _TABLES.clear()
            _TABLES[key] = (specs, table)
            return table
        refs = [r for d in setup.decks.values() for r in d]
        refs += [r for p in setup.piles.values() for r in p]
        if position is not None:
            refs += position.refs()
        sets = frozenset(icon_of_set(self._spec_of_key(r[1], specs).set) for r in refs)
        return get_table(specs, sets, self.round_number)

    @staticmethod
    def _spec_of_key(key: str, specs: Mapping[str, CardSpec]) -> CardSpec:
        try:
            return specs[key] if key in specs else resolve_card(key, specs)
        except UnknownCard as exc:
            raise InvalidSetup("unknown_card", str(exc)) from None

    def _specs(self, refs: Sequence[Ref]) -> list[int]:
        """The spec index of each card ``(uid, key)``; a key may be a bare name."""
        index = self.table.index
        try:
            return [index[ref[1]] for ref in refs]
        except KeyError:
            return [index[self._spec_of_key(ref[1], self.specs).key] for ref in refs]

    def _new_card(self, ref: Sequence[Any]) -> int:
        """A card joins the match (from a level pile, or placed by a position)."""
        uid, key = ref[0], ref[1]
        index = self.table.index.get(key)
        if index is None:
            index = self.table.index[self._spec_of_key(key, self.specs).key]
        if uid in self.uids:
            raise InvalidSetup("duplicate_uid", f"Card uid {uid!r} appears twice.")
        self.uids.add(uid)
        self.spec_of.append(index)
        self.uid.append(uid)
        self.lasting.append(0)
        self.during.append(0)
        return len(self.spec_of) - 1

    def _place(self, position: Position) -> None:
        """Lay out ``position``'s cards: benches, exhaust piles, the flag.

        Benches follow the bench rules and are never frozen."""
        for side, name in enumerate(SIDES):
            for ref in position.bench.get(name, ()):
                try:
                    self.to_bench(side, self._new_card(ref), "setup")
                except _End:
                    raise ValueError(f"No bench seat for {ref!r} in the position.") from None
        for side, name in enumerate(SIDES):
            self.exhaust[side] += [self._new_card(ref) for ref in position.exhaust.get(name, ())]
        if position.flag is not None:
            name, refs = position.flag
            self.stack = [self._new_card(ref) for ref in refs]
            self.holder = SIDES.index(name)
            self.attacker = 1 - self.holder

    # ------------------------------------------------------------------ playing

    def run(self) -> MatchResult | PendingQuestion:
        """Play to the end, or to the first question nobody can answer yet."""
        try:
            self._play()
        except _End:
            pass
        except _Pause as pause:
            # Recording, the question's own event was the last logged (``_answer``).
            before = self.events[:-1] if self.log is not None else []
            return PendingQuestion(pause.question, list(self.answers), before)
        return self.result()

    def play_opening(self, side: str) -> Question | None:
        """The opening reveal of ``side``.

        Returns the question the match stopped at, if any. A side without a policy must answer
        it."""
        return self._step(self._opening, SIDES.index(side))

    def play_attack(self) -> Question | None:
        """One attack by the side without the flag, to the flag change or the end."""
        return self._step(self._attack, 1 - self.holder)

    def play_to_end(self) -> Question | None:
        """Attacks in turn until the match ends."""
        return self._step(self._attacks)

    def _step(self, play: Callable[..., object], *args: int) -> Question | None:
        """Run ``play`` until it returns, the match ends, or a question stops it."""
        try:
            play(*args)
        except _End:
            pass
        except _Pause as pause:
            return pause.question
        return None

    def _play(self) -> None:
        self._start()
        self._opening(self.holder)
        self._attack(1 - self.holder, forever=True)

    def _opening(self, side: int) -> None:
        """The opening: ``side``'s first card takes the unheld flag.

        It is an attack on the empty flag (see ``_attack``)."""
        self.stack = []
        self.holder, self.attacker = 1 - side, side
        self._attack(side)

    def _attacks(self) -> None:
        """Attacks in turn until the match ends (``play_to_end``)."""
        if self.winner < 0:
            self._attack(1 - self.holder, forever=True)

    def _start(self) -> None:
        """Record the start, shuffle both decks and, when nobody holds the flag, toss for it.

        Chance is drawn only without recorded outcomes; a replay reads them from ``chance``. Each
        card gets a key (card ``i``: key ``i``). Then one more key, whose bit 29 is the toss (1
        means B)."""
        setup, recorded, log = self.setup, self.chance, self.log
        if log is not None:
            log.start(setup.round, setup.final, setup.park, setup.first)
        na, nb = len(self.deck[0]), len(self.deck[1])
        keys: tuple[int, ...] = ()
        if (setup.shuffle or setup.first is None) and not recorded:
            keys = chance.chance_keys(self.seed, na + nb + 1 if setup.shuffle else 1)
        if setup.shuffle:
            self._shuffle(0, keys[:na] if keys else None)
            self._shuffle(1, keys[na : na + nb] if keys else None)
        first = setup.first
        if first is None:
            first = SIDES[keys[-1] >> 29] if keys else (recorded or {})["toss"]
            if log is not None:
                log.flag_toss(first)
        if first not in SIDES:
            raise InvalidSetup("bad_first", f"first must be 'A', 'B' or null (got {first!r}).")
        self.holder = SIDES.index(first)

    def _shuffle(self, side: int, keys: tuple[int, ...] | None) -> None:
        """Shuffle ``side``'s deck by ``keys`` (``None``: the recorded order)."""
        deck = self.deck[side]
        if keys is None:
            by_uid = {self.uid[card]: card for card in deck}
            recorded: Any = self.chance
            deck[:] = [by_uid[uid] for uid in reversed(recorded["shuffle"][SIDES[side]])]
        elif deck:
            chance.shuffle(deck, keys, len(self.uid) < 256)
        if self.log is not None:
            self.log.shuffle(side, deck)

    def _attack(self, side: int, forever: bool = False) -> None:  # noqa: C901 (docs/performance.md)
        """One attack by ``side``, until the flag changes hands.

        ``side`` reveals cards until their power reaches the flag card's defence. The opening takes
        the empty flag at once. With ``forever`` the sides attack in turn until the match ends,
        usually when a beaten card finds no bench seat (``_End``, raised from anywhere).

        The hot loop of every match: its lookups are made once per match. A call per reveal would
        cost several per cent (docs/performance.md). ``_bench_beaten`` seats the beaten cards. A
        card with no bonus effect has a power shortcut here (tests/engine/test_shortcuts.py).
        Powers change only when a card moves or fans change, each bumping ``version``. Only then
        are total and defence counted again; else the new card's power is added."""
        # The per-match lookups, made once.
        table, spec_of, uid, log, events = self.table, self.spec_of, self.uid, self.log, self.events
        decks, pending, lasting, during = self.deck, self.pending, self.lasting, self.during
        base, auras, power = table.base, self.auras, self.power
        on_reveal, watch, no_flag_win = table.on_reveal, table.watch, table.no_flag_win
        flag_loss, takes_flag = table.flag_loss, table.takes_flag
        no_attack_bonus, no_flag_bonus = table.no_attack_bonus, table.no_flag_bonus
        while True:
            defender, beaten, attack, deck = 1 - side, self.stack, self.attack, decks[side]
            opening = not beaten  # nobody holds the flag yet
            flag_card = -1 if opening else beaten[-1]
            in_possession = None if opening else watch[spec_of[flag_card]]  # Yeti
            total = defence = 0
            seen = -1  # the ``version`` the total and the defence were counted at
            while True:
                # The reveal: the top card, with the bonus an effect left for the next card.
                if not deck:
                    self.lose(side, "empty_deck")
                if self.reveals >= REVEAL_LIMIT:
                    self.end(defender, "reveal_limit")
                self.reveals += 1
                card = deck.pop()
                attack.append(card)
                bonus = pending[side]
                if bonus:
                    lasting[card], during[card] = bonus
                    pending[side] = None
                else:
                    lasting[card] = during[card] = 0
                spec = spec_of[card]
                if log is not None:
                    log.reveal(side, card)
                effect = on_reveal[spec]
                if effect is not None:
                    if log is not None:
                        log.effect(side, card, "on_reveal")
                    effect(self, side, card)
                if opening:
                    break
                if in_possession is not None:
                    if log is not None:
                        log.effect(defender, flag_card, "in_flag_possession")
                    in_possession(self, defender, flag_card)
                # The total against the defence.
                if no_attack_bonus[spec] and not auras[side]:  # the shortcut of ``power``
                    card_power = base[spec] + lasting[card] + during[card]
                    if card_power < 0:
                        card_power = 0
                else:
                    card_power = power(side, card, True)
                if self.version == seen:
                    total += card_power
                else:  # a card moved or fans changed since: count every power again
                    seen, total = self.version, 0
                    for attacker in attack:
                        total += card_power if attacker == card else power(side, attacker, True)
                    held = spec_of[flag_card]
                    if no_flag_bonus[held] and not auras[defender]:  # the shortcut of ``power``
                        defence = base[held] + lasting[flag_card]
                        if defence < 0:
                            defence = 0
                    else:
                        defence = power(defender, flag_card, False)
                if log is not None:  # built here, its only place: a call costs ~1 %
                    parts: Parts = [["base", base[spec]]]
                    attacked: Attack = {
                        "seq": len(events),
                        "kind": "attack",
                        "side": SIDES[side],
                        "card": uid[card],
                        "power": power(side, card, True, parts),
                        "parts": parts,
                        "total": total,
                        "defence": defence,
                    }
                    events.append(attacked)
                if total >= defence:
                    break
                effect = no_flag_win[spec]
                if effect is not None:
                    if log is not None:
                        log.effect(side, card, "no_flag_win")
                    effect(self, side, card)
            # The flag changes hands: Flag loss, the beaten stack to the bench, the attack as the
            # flag stack (During the attack bonuses end: read only while attacking), Takes the flag.
            if not opening:
                flag_card = beaten[-1]
                effect = flag_loss[spec_of[flag_card]]
                if effect is not None:
                    if log is not None:
                        log.effect(defender, flag_card, "flag_loss")
                    effect(self, defender, flag_card)
                self.version += 1
            if beaten and self._bench_beaten(defender, beaten):
                return  # no free seat: the defender lost (the usual end)
            self.stack, self.attack = attack, []
            self.holder, self.attacker = side, defender
            flag_card = attack[-1]
            if log is not None:
                log.flag(side, attack, self._power_parts(side, flag_card))
            effect = takes_flag[spec_of[flag_card]]
            if effect is not None:
                if log is not None:
                    log.effect(side, flag_card, "takes_flag")
                effect(self, side, flag_card)
            if not forever:
                return
            side = defender

    def _bench_beaten(self, defender: int, beaten: list[int]) -> bool:
        """``to_bench`` each beaten card of ``defender``, top card first.

        An ordinary card takes its seat here. This is the shortcut of ``to_bench``, pinned by
        tests/engine/test_shortcuts.py. ``True`` when a card found no free seat: the defender lost
        (the usual end)."""
        table, spec_of, log = self.table, self.spec_of, self.log
        ordinary, seat_name = table.ordinary_bench_card, table.seat_name
        slots, seat_of = self.bench[defender], self.seat_of[defender]
        freezing = self.can_freeze[defender]
        while beaten:
            card = beaten.pop()
            spec = spec_of[card]
            if freezing or not ordinary[spec]:
                beaten.append(card)
                self.to_bench(defender, card, "flag", beaten)
                continue
            name = seat_name[spec]
            seat = seat_of.get(name, -1)
            if seat >= 0:
                seated: list[int] = slots[seat][1]  # typed: a list append when compiled
                seated.append(card)
            else:
                try:
                    seat = slots.index(None)
                except ValueError:
                    self.unplaced[defender].append(card)
                    self.finish(1 - defender, "bench_full")
                    return True
                slots[seat] = [name, [card], -1]
                seat_of[name] = seat
            if log is not None:
                log.benched(defender, card, seat, "flag")
        return False

    def lose(self, side: int, reason: str) -> None:
        """``side`` loses the match now."""
        self.end(1 - side, reason)

    def end(self, winner: int, reason: str) -> None:
        """End the match with ``winner`` (raises ``_End`` out of whatever runs)."""
        self.finish(winner, reason)
        raise _End

    def finish(self, winner: int, reason: str) -> None:
        """Set the winner and record the end (the caller stops playing)."""
        self.winner, self.reason = winner, reason
        if self.log is not None:
            self.log.end(winner, reason, self.unplaced[1 - winner])

    # ------------------------------------------------------------------ power

    def power(self, side: int, card: int, attacking: bool, parts: Parts | None = None) -> int:
        """The power of ``side``'s ``card`` now, attacking or holding the flag.

        It is the base power plus its bonuses times its bonus factor (Streamer: 2). The bonuses are
        its own ones and the From the bench ones of ``side``'s bench. Its own are the lasting ones,
        During the attack and In flag possession. Never below 0. ``parts`` (recording) receives the
        lines after the base."""
        table, spec = self.table, self.spec_of[card]
        lasting = self.lasting[card]
        if attacking:
            extra, own_bonus = self.during[card], table.attack_fn[spec]
        else:
            extra, own_bonus = 0, table.flag_fn[spec]
        if own_bonus is not None:
            extra += own_bonus(self, side, card)
        if parts is not None:
            self._own_parts(parts, spec, lasting, extra, attacking)
        bonus = lasting + extra
        auras = self.auras[side]
        if auras:  # From the bench bonuses (to attacking cards, flag cards, or both)
            other_role, spec_of = HOLDING if attacking else ATTACKING, self.spec_of
            for giver in auras:
                amount, role, targets = table.aura[spec_of[giver]]
                if role != other_role and spec in targets:
                    bonus += amount
                    if parts is not None:
                        line = [table.bench_label[spec_of[giver]], amount * table.factor[spec]]
                        parts.append(line)
        power = table.base[spec] + table.factor[spec] * bonus
        return power if power > 0 else 0

    def stated(self, event: dict[str, Any], side: int, shown: int) -> None:
        """Add to ``event`` the board's values changed since last stated (recording).

        The values are ``defence``, ``attack_total`` and ``deck`` (``events.Stated``).
        ``attack_total`` is ``None`` for no attack. ``deck`` is ``side``'s deck count. ``shown`` is
        the defence ``event`` states itself, else ``-1``. A flag event states its ``power``; no
        attack then."""
        events, said = self.events, self.said
        if events:
            last: dict[str, Any] = events[-1]
            if last["kind"] == "attack":  # it stated both itself (the attack loop builds it)
                said[0], said[1] = last["defence"], last["total"]
        if shown >= 0:
            said[0], said[1] = shown, -1
        defence, total = self.powers()
        if defence != said[0]:
            event["defence"] = defence if defence >= 0 else None
            said[0] = defence
        if total != said[1]:
            event["attack_total"] = total if total >= 0 else None
            said[1] = total
        left = len(self.deck[side])
        if left != said[2 + side]:
            event["deck"] = left
            said[2 + side] = left

    def powers(self) -> tuple[int, int]:
        """The flag card's defence and the attack's total now (recording only).

        ``-1`` is none: no flag held, or no attack on a held flag. ``EventLog`` states these.

        They are counted as the attack loop counts them. ``version`` and the holder may stay the
        same (no card moved, no fans changed). Then the defence changes only with the flag card,
        or a lasting bonus an effect gave it. The total changes only by the newest attacking
        card. That is its reveal, or a lasting bonus its effect gave it. So only that card's
        power is counted."""
        stack, attack, lasting, seen = self.stack, self.attack, self.lasting, self.powers_seen
        same = self.version == seen[0] and self.holder == seen[1]
        top = stack[-1] if stack else -1
        if not (same and top == seen[2] and (top < 0 or lasting[top] == seen[3])):
            seen[4] = self.power(self.holder, top, False) if top >= 0 else -1
        n, newest = len(attack), attack[-1] if attack else -1
        if top < 0 or newest < 0:
            seen[6] = seen[7] = -1
        elif n == seen[5] + 1 and same and (n == 1 or lasting[attack[-2]] == seen[8]):
            seen[6] = seen[7] if n > 1 else 0  # a reveal: the cards before it are as counted
            seen[7] = seen[6] + self.power(self.attacker, newest, True)
        elif n != seen[5] or not same:
            seen[6] = sum([self.power(self.attacker, card, True) for card in attack[:-1]])
            seen[7] = seen[6] + self.power(self.attacker, newest, True)
        elif lasting[newest] != seen[8]:  # an effect gave the newest card a lasting bonus
            seen[7] = seen[6] + self.power(self.attacker, newest, True)
        seen[0], seen[1], seen[2], seen[5] = self.version, self.holder, top, n
        seen[3] = lasting[top] if top >= 0 else 0
        seen[8] = lasting[newest] if newest >= 0 else 0
        return seen[4], seen[7]

    def _power_parts(self, side: int, card: int) -> tuple[int, Parts]:
        """The power and breakdown of ``side``'s flag card ``card`` (recording)."""
        parts: Parts = [["base", self.table.base[self.spec_of[card]]]]
        return self.power(side, card, False, parts), parts

    def _own_parts(
        self, parts: Parts, spec: int, lasting: int, extra: int, attacking: bool
    ) -> None:
        """A card's own bonus lines in its power's breakdown (recording)."""
        factor = self.table.factor[spec]
        if lasting:
            parts.append(["reveal", lasting * factor])
        if extra:
            parts.append(["attack" if attacking else "flag", extra * factor])

    # ------------------------------------------------------------------ places

    def key_of(self, card: int) -> str:
        """The design key of ``card``."""
        return self.table.keys[self.spec_of[card]]

    def bench_cards(self, side: int) -> list[int]:
        """Every card on ``side``'s bench (frozen seats excluded)."""
        return [card for seat in self.bench[side] if seat is not None for card in seat[1]]

    def bench_cards_in(self, side: int, specs: Container[int]) -> list[int]:
        """``side``'s bench cards whose spec index is in ``specs``."""
        spec_of = self.spec_of
        return [
            card
            for seat in self.bench[side]
            if seat is not None
            for card in seat[1]
            if spec_of[card] in specs
        ]

    def empty_seats(self, side: int) -> int:
        """Free bench seats of ``side`` (not a Troll's second seat)."""
        return self.bench[side].count(None)

    def tokens(self, side: int) -> int:
        """The fan tokens ``side`` owns: its start ones plus this match's gains."""
        return self.tokens_at_start[side] + self.fans[side]

    def gain_fans(self, side: int, n: int, card: int) -> None:
        """``side`` gains ``n`` fan tokens through ``card``."""
        self.fans[side] += n
        self.version += 1
        if self.log is not None:
            self.log.fans(side, n, card, self.fans[side])

    def to_bench(self, side: int, card: int, src: str, lift: list[int] | None = None) -> None:
        """Put ``card`` on ``side``'s bench.

        It joins its name's seat, else takes the first free slot. A Troll takes the first free slot
        and blocks the next one. A Backpacker goes to the exhaust pile instead. In Winter Park its
        owner may freeze it. If no seat can take it, it stays unplaced and ``side`` loses. The
        reason is ``troll_no_seats`` for a wide card, else ``bench_full``.

        ``lift`` is the list whose last card is ``card``. It is lifted from there as it is placed.
        So a question asked on the way (freeze?) sees every card in exactly one place."""
        self.version += 1
        table, spec = self.table, self.spec_of[card]
        if table.bench_redirect[spec]:
            if lift is not None:
                lift.pop()
            self.to_exhaust(side, card, src)
            return
        if self.can_freeze[side] and self._freeze(side, card, lift):
            return
        if lift is not None:
            lift.pop()
        name, width = table.seat_name[spec], table.width[spec]
        slots, seat_of = self.bench[side], self.seat_of[side]
        seat, pad = seat_of.get(name, -1), -1
        if seat >= 0:
            seated: list[int] = slots[seat][1]  # typed: a list append when compiled
            seated.append(card)
        elif width > slots.count(None):
            self.unplaced[side].append(card)
            self.lose(side, "troll_no_seats" if width > 1 else "bench_full")
        else:
            seat = slots.index(None)
            pad = slots.index(None, seat + 1) if width > 1 else -1
            if pad >= 0:
                slots[pad] = [None, [], -1]
            slots[seat] = [name, [card], pad]
            seat_of[name] = seat
        if table.is_aura[spec]:
            self.auras[side].append(card)
        if self.log is not None:
            self.log.benched(side, card, seat, src, pad)

    def _freeze(self, side: int, card: int, lift: list[int] | None) -> bool:
        """Winter Park: ask ``side`` whether to freeze ``card``; True when it did.

        The frozen seat needs room for its base power."""
        table, spec = self.table, self.spec_of[card]
        base = table.base[spec]
        room = [i for i in (0, 1) if self.frozen_power[side][i] + base <= self.round_number]
        if not room:
            return False
        has_seat = table.seat_name[spec] in self.seat_of[side]
        fits = has_seat or table.width[spec] <= self.empty_seats(side)
        wanted = not fits or (not has_seat and not table.is_aura[spec])
        default = room[:1] if wanted else []
        keys = [self.key_of(card)] * len(room)
        answer = self.ask(side, "freeze", card, room, 0, 1, default, keys)
        if not answer:
            return False
        seat = answer[0]
        if lift is not None:
            lift.pop()
        self.frozen[side][seat].append(card)
        self.frozen_power[side][seat] += base
        if self.log is not None:
            self.log.frozen(side, card, seat)
        return True

    def bench_take(self, side: int, card: int) -> None:
        """Lift ``card`` off ``side``'s bench (the caller puts it somewhere)."""
        self.version += 1
        slots = self.bench[side]
        table, spec = self.table, self.spec_of[card]
        i = self.seat_of[side].get(table.seat_name[spec], -1)  # where a card sits, by its name
        if i < 0 or card not in slots[i][1]:  # a frozen or unseated card
            i = next((j for j in range(SEATS) if slots[j] is not None and card in slots[j][1]), -1)
        if i >= 0:
            seat = slots[i]
            cards: list[int] = seat[1]
            cards.remove(card)
            if not cards:
                slots[i] = None
                del self.seat_of[side][seat[0]]
                if seat[2] >= 0:
                    slots[seat[2]] = None
        if table.is_aura[spec]:
            self.auras[side].remove(card)

    def take_from_play(self, card: int) -> str | None:
        """Lift ``card`` out of the flag stack or the attack; returns where it was."""
        if card in self.stack:
            self.stack.remove(card)
            return "flag"
        if card in self.attack:
            self.attack.remove(card)
            return "attack"
        return None

    def to_exhaust(self, side: int, card: int, src: str) -> None:
        """Put ``card`` on ``side``'s exhaust pile.

        A Dwarf goes on top of the deck instead."""
        self.version += 1
        if self.table.exhaust_redirect[self.spec_of[card]]:
            self.to_deck(side, card, True, src)
            return
        self.exhaust[side].append(card)
        if self.log is not None:
            self.log.exhausted(side, card, src)

    def to_deck(self, side: int, card: int, top: bool, src: str) -> None:
        """Put ``card`` on top of (or under) ``side``'s deck."""
        self.version += 1
        if top:
            self.deck[side].append(card)
        else:
            self.deck[side].insert(0, card)
        if self.log is not None:
            self.log.moved(side, card, src, "deck_top" if top else "deck_bottom")

    def remove(self, side: int, card: int, src: str) -> None:
        """Remove ``card`` from the game for good."""
        self.version += 1
        self.removed[side].append(card)
        if self.log is not None:
            self.log.removed(side, card, src)

    def draw_pile(self, pile: str, side: int) -> int | None:
        """The top card of level pile ``pile``, now ``side``'s.

        ``None`` when the pile is empty."""
        taken = self.taken
        pos = taken[pile]
        refs = self.piles.get(pile, ())
        if pos >= len(refs):
            return None
        taken[pile] = pos + 1
        return self._new_card(refs[pos])

    # ------------------------------------------------------------------ choices

    def ask(
        self,
        side: int,
        kind: str,
        card: int,
        options: Sequence[Any],
        least: int,
        most: int,
        default: Sequence[Any],
        keys: Sequence[str] | None = None,
        prompt: str | Callable[[], str] | None = None,
    ) -> list[Any]:
        """Ask ``side`` to choose options for ``card``'s effect; returns the chosen ones.

        It chooses between ``least`` and ``most`` of ``options``. Kind ``arrange_top`` orders them
        all.

        ``options`` are card ids, shown as their uids and named by their keys. ``keys`` may name
        each option instead (seat slots, ``"top"``/``"bottom"``). Those are shown as they are.
        ``default`` is the default policy's answer. A choice with one possible answer is not
        asked."""
        if kind not in PERMUTATION_KINDS and least == most == len(options):
            return list(options)  # no real choice
        uid, cards = self.uid, keys is None
        if self.default_policy[side] and len(self.answers) >= len(self.given):
            # The default policy's answer, without building the question: it is valid by
            # construction. Recorded as a question and an answer all the same.
            chosen = [uid[option] for option in default] if cards else list(default)
            if self.log is not None:
                offered = [uid[option] for option in options] if cards else list(options)
                self.log.question(len(self.answers), side, kind, card, offered, least, most)
                self.log.answer(len(self.answers), side, list(chosen))
            self.answers.append(chosen)
            return list(default)
        shown: Sequence[Any] = options
        shown_default: Sequence[Any] = default
        seats: list[int | None] = []
        if cards:
            shown, shown_default = [uid[c] for c in options], [uid[c] for c in default]
            keys = [self.key_of(c) for c in options]
            seats = [self.bench_seat(c) for c in options]
        question = Question(
            len(self.answers),
            SIDES[side],
            kind,
            uid[card],
            self.key_of(card),
            tuple(shown),
            least,
            most,
            (prompt() if callable(prompt) else prompt) or PROMPTS[kind],
            tuple(keys or ()),
            tuple(shown_default),
            tuple(seats),
        )
        chosen = self._answer(side, card, question)
        if not cards:
            return chosen
        by_uid = dict(zip(shown, options, strict=True))
        return [by_uid[u] for u in chosen]

    def _answer(self, side: int, card: int, question: Question) -> list[object]:
        """The checked answer to ``question``.

        It is the next given answer, else ``side``'s policy's. A side without a policy stops the
        match here (``_Pause``)."""
        seq, log = question.seq, self.log
        if log is not None:
            options = list(question.options)
            log.question(seq, side, question.kind, card, options, question.min, question.max)
        if seq < len(self.given):
            chosen = check_answer(question, self.given[seq])
        else:
            chosen = self._policy_answer(side, question)
        self.answers.append(chosen)
        if log is not None:
            log.answer(seq, side, list(chosen))
        return chosen

    def _policy_answer(self, side: int, question: Question) -> list[object]:
        policy = self.policies[side]
        if policy is None:
            raise _Pause(question)
        try:
            seeing = getattr(policy, "answer_seeing", None)
            if seeing is not None:  # a policy that decides from what its side may know
                return check_answer(question, seeing(question, self.view(side)))
            return check_answer(question, policy.answer(question))
        except InvalidAnswer as exc:
            raise InvalidAnswer(exc.code, f"Policy for {question.side}: {exc.message}") from None

    def view(self, side: int) -> SideView:
        """What ``side`` may know now (``SideView``).

        Never a deck's order, the other side's cards before they show, or a pile's order."""
        setup, name = self.setup, SIDES[side]
        public = MatchSetup(
            decks={},
            round=setup.round,
            first=setup.first,
            park=setup.park,
            shuffle=False,
            trophies=setup.trophies,
            fans=setup.fans,
            lost_previous=setup.lost_previous,
            sets_in_play=tuple(sorted(self.table.sets_in_play)),
            robot=setup.robot,
            final=setup.final,
            specs=setup.specs,
            rules_version=setup.rules_version,
        )
        own = tuple(sorted(setup.decks[name], key=lambda ref: (ref[1], str(ref[0]))))
        piles = {pile: self._level_keys(pile) for pile in self.piles}
        seen = tuple(seen_by(self.events, name)) if self.log is not None else None
        return SideView(name, public, own, len(setup.decks[SIDES[1 - side]]), piles, seen)

    def _level_keys(self, level: str) -> tuple[str, ...]:
        """The public composition of a level pile.

        That is every card design of its level in the sets in play: which cards exist. It is never
        this match's share of the pile. The pile's hidden order decides that."""
        table, sets = self.table, self.table.sets_in_play
        return tuple(
            sorted(
                key
                for key, spec in zip(table.keys, table.specs, strict=True)
                if spec.level == level and icon_of_set(spec.set) in sets
            )
        )

    def bench_seat(self, card: int) -> int | None:
        """``card``'s bench seat (0-5) on either side, or ``None``."""
        for slots in self.bench:
            for index, slot in enumerate(slots):
                if slot is not None and card in slot[1]:
                    return index
        return None

    def choose_seat(self, side: int, card: int, kind: str, biggest_first: bool) -> int | None:
        """Ask ``side`` to pick one of its occupied bench seats (by slot)."""
        slots = self.bench[side]
        seats = [i for i in range(SEATS) if slots[i] is not None and slots[i][1]]
        if not seats:
            return None
        aura, spec_of = self.table.is_aura, self.spec_of
        best = sorted(
            seats,
            key=lambda i: (any(aura[spec_of[c]] for c in slots[i][1]), -len(slots[i][1]), i),
        )
        names = [str(slots[i][0]) for i in seats]
        (seat,) = self.ask(side, kind, card, seats, 1, 1, best[:1], names)
        return int(seat)

    def by_power(self, cards: Sequence[int], highest: bool = True) -> list[int]:
        """``cards`` sorted by base power, stable.

        Highest first unless ``highest=False``."""
        base, spec_of = self.table.base, self.spec_of
        keys = [-base[spec_of[c]] for c in cards] if highest else [base[spec_of[c]] for c in cards]
        return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]

    def best_by_power(self, cards: Sequence[int], highest: bool = True) -> int:
        """The first card of the highest (lowest) base power.

        ``by_power(cards, highest)[0]``."""
        base, spec_of = self.table.base, self.spec_of
        powers = [base[spec_of[c]] for c in cards]
        return cards[powers.index(max(powers) if highest else min(powers))]

    def seat_size(self, side: int, card: int) -> int:
        """How many cards share ``card``'s bench seat."""
        for seat in self.bench[side]:
            if seat is not None and card in seat[1]:
                return len(seat[1])
        return 0

    def default_bench_pick(
        self, side: int, candidates: list[int], n: int, own: bool, to_deck: bool
    ) -> list[int]:
        """The default policy's pick of ``n`` bench cards (see ``policies``)."""
        base, spec_of, aura = self.table.base, self.spec_of, self.table.is_aura
        size: dict[int, int] = {}  # card -> how many cards share its seat (``seat_size``)
        for seat in self.bench[side]:
            if seat is not None:
                cards: list[int] = seat[1]
                for card in cards:
                    size[card] = len(cards)
        get = size.get
        keys: list[tuple[int, int, int]]
        if own:
            sign = -1 if to_deck else 1
            keys = [(get(c, 0), aura[spec_of[c]], sign * base[spec_of[c]]) for c in candidates]
        else:
            keys = [(not aura[spec_of[c]], -get(c, 0), -base[spec_of[c]]) for c in candidates]
        if n == 1:
            return [candidates[keys.index(min(keys))]]
        order = sorted(range(len(candidates)), key=keys.__getitem__)
        return [candidates[i] for i in order[:n]]

    # ------------------------------------------------------------------ result

    def owned(self, side: int) -> list[int]:
        """Every card ``side`` still owns.

        Deck, flag or attack, bench, frozen, exhaust."""
        cards = self.deck[side][::-1]
        if self.holder == side:
            cards += self.stack[::-1]
        if self.attacker == side:
            cards += self.attack[::-1]
        for seat in self.bench[side]:
            if seat is not None:
                cards += seat[1]
        for seat in self.frozen[side]:
            cards += seat
        cards += self.exhaust[side]
        cards += self.unplaced[side]
        return cards

    def result(self) -> MatchResult:
        """The ``MatchResult`` of a finished match.

        Card places are computed on access."""
        fans = self.fans
        return MatchResult(
            SIDES[self.winner],
            self.reason,
            self.events,
            {"A": fans[0], "B": fans[1]},
            self.answers,
            self,
            self.setup.piles,
            self.reveals,
        )

    def decks_after(self) -> dict[str, list[Any]]:
        """Each side's card uids after the match (``MatchResult.decks_after``)."""
        uid = self.uid.__getitem__
        return {"A": list(map(uid, self.owned(0))), "B": list(map(uid, self.owned(1)))}

    def removed_uids(self) -> dict[str, list[Any]]:
        """Each side's card uids removed from the game."""
        uid, removed = self.uid.__getitem__, self.removed
        return {"A": list(map(uid, removed[0])), "B": list(map(uid, removed[1]))}

    def piles_taken(self) -> dict[str, int]:
        """How many cards effects took from the top of each level pile."""
        return dict(self.taken)


def play_match(
    setup: MatchSetup,
    seed: int | str | None,
    policies: Mapping[str, Policy | None] | None = None,
    *,
    record: bool = True,
    answers: Sequence[object] = (),
) -> MatchResult | PendingQuestion:
    """Play one match.

    A side missing from ``policies`` uses ``DefaultPolicy``. A side mapped to ``None`` is a human.
    The match stops at its first unanswered question (``PendingQuestion``). To go on, replay with
    ``answers`` extended by the new answer."""
    return Match(setup, seed, policies, record, answers).run()
