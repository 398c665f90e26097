"""One match of Challengers! (rules.md §2.3-2.4, §4, §5): ``play_match(setup, seed, policies)``.

The fast path (``record=False``) and the recorded path are one engine: every event is built
under an ``if self.rec:`` guard. Internally sides are ints (0 = "A", 1 = "B"), cards are ints
indexing per-match lists (``spec``, ``uid``, ``lasting``, ``during``), decks are lists with the
top card at the end, and a bench is 6 slots, each ``None`` or a seat ``[name, cards, pad]``
(``pad`` is the second slot a Troll seat blocks, or -1).

**Decisions (rules):**

* Opening: the opener's card takes the flag, then its on-reveal effect, then its "takes the
  flag" effect resolve.
* A flag change: (1) the defending card's Flag loss effect, (2) its stack goes to the bench,
  top card first (a card that finds no seat loses the match for its owner; it stays unplaced),
  (3) the attacker's cards stack (last on top, During the attack bonuses end) and the new flag
  card's "takes the flag" effect resolves.
* After each reveal: the card's effect, then a flag-holding card's per-reveal effect (Yeti),
  then attack total vs defence; only if the attack has not won does a No flag win effect run.
* A card's power never drops below 0. Streamer's factor multiplies every bonus it receives.
* Winter Park: each time a card goes to the bench (not one redirected by its own rule, like the
  Backpacker) its owner is asked whether to freeze it when a frozen seat can take it. The Robot
  never has frozen seats. Frozen cards are invisible to effects and return to the deck after.
* A match that reaches ``REVEAL_LIMIT`` reveals (no real deck can) ends: the flag holder wins
  with reason ``reveal_limit`` — a guard so a match always terminates.
"""

from __future__ import annotations

import hashlib
import operator
import os
import struct
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

from matches.engine.cards import CardSpec, UnknownCard, icon_of_set, load_catalogue, resolve_card
from matches.engine.effects import ATTACKING, HOLDING
from matches.engine.model import (
    SIDES,
    InvalidAnswer,
    InvalidSetup,
    MatchResult,
    MatchSetup,
    PendingQuestion,
    Policy,
    Question,
    Ref,
)
from matches.engine.policies import DefaultPolicy
from matches.engine.questions import PROMPTS, check_answer
from matches.engine.table import Table, get_table

REVEAL_LIMIT = 5000
SEATS = 6
_DEFAULT_POLICY = DefaultPolicy()
_TABLES: dict[tuple[int, Any, int], tuple[Mapping[str, CardSpec], Table]] = {}
_SHAKE = hashlib.shake_128
_FIRST = operator.itemgetter(0)


def _chance_keys(seed: Any, n: int) -> tuple[int, ...]:
    """``n`` random keys derived from ``seed``: the little-endian 32-bit words of SHAKE-128 of the
    seed's text (``"12345"`` for an int, ``"str:…"`` for a string, ``repr``-based for anything
    else; ``None``: 16 bytes from ``os.urandom``), top two bits cleared; when ``n <= 256`` the
    low byte of word ``i`` is replaced by ``i`` (so sorting the keys sorts the indices)."""
    if type(seed) is int:
        text = str(seed).encode()
    elif type(seed) is str:
        text = ("str:" + seed).encode()
    elif seed is None:
        text = os.urandom(16)
    else:
        text = f"{type(seed).__name__}:{seed!r}".encode()
    masks = _MASKS.get(n)
    if masks is None:
        masks = _MASKS[n] = _masks(n)
    unpack, mask, ids = masks
    bits = int.from_bytes(_SHAKE(text).digest(4 * n), "little")
    return unpack((bits & mask | ids).to_bytes(4 * n, "little"))


def _masks(n: int) -> tuple[Any, int, int]:
    """``_chance_keys``' unpacker, mask and indices for ``n`` words."""
    word = (1 << 30) - 1
    ids = 0
    if n <= 256:
        word -= 255
        ids = sum(i << (32 * i) for i in range(n))
    mask = sum(word << (32 * i) for i in range(n))
    return struct.Struct(f"<{n}I").unpack, mask, ids


def _packer(n: int) -> Any:
    """``struct.pack`` of ``n`` 32-bit little-endian words (cached)."""
    pack = _PACK.get(n)
    if pack is None:
        pack = _PACK[n] = struct.Struct(f"<{n}I").pack
    return pack


_MASKS: dict[int, tuple[Any, int, int]] = {}
# A match outside Winter Park: no side may freeze, its frozen seats (shared, never filled).
_NO_FREEZE = (False, False)
_NOT_FROZEN: list[list[list[int]]] = [[[], []], [[], []]]
_NOT_FROZEN_POWER = [[0, 0], [0, 0]]
_PACK: dict[int, Any] = {}


class _End(Exception):
    """The match is over (``Match.winner``/``reason`` are set)."""


class _Pause(Exception):
    """A side without a policy must answer ``question``."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.kind)
        self.question = question


class Match:
    """The state of one match being played (internal; use ``play_match``)."""

    __slots__ = (
        "answers",
        "attack",
        "attacker",
        "auras",
        "bench",
        "can_freeze",
        "chance",
        "deck",
        "defaults",
        "during",
        "events",
        "exhaust",
        "fans",
        "frozen",
        "frozen_power",
        "given",
        "holder",
        "initial",
        "lasting",
        "lost_previous",
        "pending",
        "piles",
        "policies",
        "reason",
        "rec",
        "removed",
        "reveals",
        "round_number",
        "seat_of",
        "seed",
        "setup",
        "spec",
        "specs",
        "stack",
        "t",
        "taken",
        "tokens0",
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
        answers: Sequence[Any],
        chance: Mapping[str, Any] | None = None,
    ) -> None:
        self.setup = setup
        self.seed = seed
        self.rec = record
        self.events: list[dict[str, Any]] = []
        self.chance = chance
        specs = load_catalogue() if setup.specs is None else setup.specs
        self.specs = specs
        self.round_number = rn = setup.round_number
        if not (1 <= rn <= 7):
            raise InvalidSetup("bad_round", f"Round must be 1-7 (got {setup.round}).")
        self.t = self._table(setup, specs)
        decks = setup.decks
        if "A" not in decks or "B" not in decks:
            raise InvalidSetup("missing_deck", "A match needs the decks of sides A and B.")
        refs = [*decks["A"], *decks["B"]]
        na, n = len(decks["A"]), len(refs)
        self.spec = self._specs(refs)
        self.uid: list[Any] = list(map(_FIRST, refs))
        # Card ids: deck A's cards are 0..na-1, deck B's the next; a deck lists its top card last.
        self.deck = [list(range(na - 1, -1, -1)), list(range(n - 1, na - 1, -1))]
        self.uids: set[Any] = set(self.uid)
        if len(self.uids) != n:
            raise InvalidSetup("duplicate_uid", "A card uid appears twice in the decks.")
        self.lasting: list[int] = [0] * n
        self.during: list[int] = [0] * n
        self.version = 0
        self.piles = setup.piles
        self.taken = {"A": 0, "B": 0, "C": 0}
        self.bench: list[list[Any]] = [[None] * SEATS, [None] * SEATS]
        self.seat_of: list[dict[str, int]] = [{}, {}]
        self.auras: list[list[int]] = [[], []]
        self.exhaust: list[list[int]] = [[], []]
        self.removed: list[list[int]] = [[], []]
        self.unplaced: list[list[int]] = [[], []]
        if setup.park == "winter":
            robot = setup.robot
            self.can_freeze: Sequence[bool] = (robot != "A", robot != "B")
            self.frozen: list[list[list[int]]] = [[[], []], [[], []]]
            self.frozen_power = [[0, 0], [0, 0]]
        else:
            # Nobody can freeze: the frozen seats stay empty, so every match shares them.
            self.can_freeze = _NO_FREEZE
            self.frozen, self.frozen_power = _NOT_FROZEN, _NOT_FROZEN_POWER
        trophies, fans, lost = setup.trophies, setup.fans, setup.lost_previous
        self.trophies: tuple[int, int] = (
            (trophies.get("A", 0), trophies.get("B", 0)) if trophies else (0, 0)
        )
        self.tokens0: tuple[int, int] = (fans.get("A", 0), fans.get("B", 0)) if fans else (0, 0)
        self.lost_previous: tuple[bool, bool] = (
            (lost.get("A", False), lost.get("B", False)) if lost else (False, False)
        )
        self.fans = [0, 0]
        self.pending: list[list[int] | None] = [None, None]
        self.stack: list[int] = []
        self.attack: list[int] = []
        self.holder = 0
        self.attacker = 1
        self.reveals = 0
        self.winner = -1
        self.reason = ""
        self.given = tuple(answers)
        self.answers: list[Any] = []
        if policies:
            a, b = policies.get("A", _DEFAULT_POLICY), policies.get("B", _DEFAULT_POLICY)
        else:
            a = b = _DEFAULT_POLICY
        self.policies: list[Policy | None] = [a, b]
        # A side the default policy answers: once the given answers are used up, its questions
        # are not built (only recorded); the default is valid by construction.
        self.defaults = (type(a) is DefaultPolicy, type(b) is DefaultPolicy)

    # ------------------------------------------------------------------ setup

    def _table(self, setup: MatchSetup, specs: Mapping[str, CardSpec]) -> Table:
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
        sets = frozenset(icon_of_set(self._spec_of_key(r[1], specs).set) for r in refs)
        return get_table(specs, sets, self.round_number)

    @staticmethod
    def _spec_of_key(key: str, specs: Mapping[str, CardSpec]) -> CardSpec:
        try:
            return specs[key] if key in specs else resolve_card(key, specs)
        except UnknownCard as exc:
            raise InvalidSetup("unknown_card", str(exc)) from None

    def _new_card(self, ref: Sequence[Any]) -> int:
        uid, key = ref[0], ref[1]
        index = self.t.index.get(key)
        if index is None:
            index = self.t.index[self._spec_of_key(key, self.specs).key]
        if uid in self.uids:
            raise InvalidSetup("duplicate_uid", f"Card uid {uid!r} appears twice.")
        self.uids.add(uid)
        self.spec.append(index)
        self.uid.append(uid)
        self.lasting.append(0)
        self.during.append(0)
        return len(self.spec) - 1

    def _specs(self, refs: Sequence[Ref]) -> list[int]:
        """The spec index of each card ``(uid, key)``; a key may be a bare name."""
        index = self.t.index
        try:
            return [index[ref[1]] for ref in refs]
        except KeyError:
            return [index[self._spec_of_key(ref[1], self.specs).key] for ref in refs]

    # ------------------------------------------------------------------ running

    def run(self) -> MatchResult | PendingQuestion:
        """Play to the end, or to the first question nobody can answer yet."""
        try:
            self._start()
            self._play()
        except _End:
            pass
        except _Pause as pause:
            return PendingQuestion(pause.question, list(self.answers))
        return self.result()

    def emit(self, kind: str, **fields: Any) -> None:
        """Append an event (callers guard with ``if self.rec``)."""
        events = self.events
        events.append({"seq": len(events), "kind": kind, **fields})

    def _start(self) -> None:
        s = self.setup
        if self.rec:
            self.emit("start", round=s.round, final=s.final, park=s.park, first=s.first)
        first, chance = s.first, self.chance
        # Chance is drawn only without recorded outcomes (a replay reads them from ``chance``):
        # one key per card (card ``i``: key ``i``; deck A holds cards 0..na-1, deck B the next
        # nb), then one whose bit 29 is the toss (1 = B).
        keys: tuple[int, ...] = ()
        na, nb = len(self.deck[0]), len(self.deck[1])
        if (s.shuffle or first is None) and not chance:
            keys = _chance_keys(self.seed, na + nb + 1 if s.shuffle else 1)
        if s.shuffle:
            self._shuffle(0, keys[:na] if keys else None, na + nb < 256)
            self._shuffle(1, keys[na : na + nb] if keys else None, na + nb < 256)
        if first is None:
            toss = SIDES[keys[-1] >> 29] if keys else (chance or {})["toss"]
            first = toss
            if self.rec:
                self.emit("flag_toss", side=toss)
        if first not in SIDES:
            raise InvalidSetup("bad_first", f"first must be 'A', 'B' or null (got {first!r}).")
        self.holder = SIDES.index(first)

    def _shuffle(self, side: int, keys: tuple[int, ...] | None, ids: bool) -> None:
        deck = self.deck[side]
        if keys is None:
            by_uid = {self.uid[c]: c for c in deck}
            chance: Any = self.chance
            deck[:] = [by_uid[u] for u in reversed(chance["shuffle"][SIDES[side]])]
        elif deck:
            # Sort the cards by their keys: 22 random bits above the card id (``ids``; a tie, about
            # one 18-card shuffle in 30,000, keeps the card id order) or else 30 random bits
            # (ties keep the setup order). A uniform shuffle for any practical deck, cheaper
            # than random.shuffle; the outcome is recorded anyway.
            if ids:  # the card ids are the keys' low bytes
                deck[:] = _packer(len(keys))(*sorted(keys))[::4]
            else:
                deck[:] = map(deck.__getitem__, sorted(range(len(deck)), key=keys.__getitem__))
        if self.rec:
            order = list(map(self.uid.__getitem__, reversed(deck)))
            self.emit("shuffle", side=SIDES[side], order=order)

    def _play(self) -> None:
        self._opening(self.holder)
        self._attack(1 - self.holder, forever=True)

    def _reveal(self, side: int) -> int:
        deck = self.deck[side]
        if not deck:
            self.lose(side, "empty_deck")
        if self.reveals >= REVEAL_LIMIT:
            self.end(self.holder, "reveal_limit")
        self.reveals += 1
        c = deck.pop()
        pending = self.pending[side]
        if pending:
            self.lasting[c], self.during[c] = pending
            self.pending[side] = None
        else:
            self.lasting[c] = self.during[c] = 0
        return c

    def _opening(self, side: int) -> None:
        c = self._reveal(side)
        self.stack = [c]
        self.holder, self.attacker = side, 1 - side
        sp = self.spec[c]
        t = self.t
        if self.rec:
            self.emit("reveal", side=SIDES[side], card=self.uid[c], key=self.key_of(c))
        if t.on_reveal[sp] is not None:
            if self.rec:
                self._note_effect(side, c, "on_reveal")
            t.on_reveal[sp](self, side, c)
        if self.rec:
            power, parts = self._power_parts(side, c, False)
            key = self.key_of(c)
            uid = self.uid[c]
            self.emit(
                "flag", side=SIDES[side], card=uid, key=key, under=[], power=power, parts=parts
            )
        if t.takes_flag[sp] is not None:
            if self.rec:
                self._note_effect(side, c, "takes_flag")
            t.takes_flag[sp](self, side, c)

    def _attack(self, a: int, forever: bool = False) -> None:
        """One attack by ``a``: reveal until the total reaches the defence, then the flag
        changes hands; with ``forever``, attacks alternate until the match ends. The match ends
        by ``_End`` raised from anywhere, or (a full bench at a flag change, the usual end) by
        ``finish`` and a return: ``winner`` is then set.

        This is the hot loop: the per-match lookups are made once, reveals and the flag change
        are inlined, so is the power of a card without a bonus code when no From the bench
        bonus applies; events are built only under ``rec``."""
        t, spec, rec = self.t, self.spec, self.rec
        on_reveal, no_flag_win, base, plain = t.on_reveal, t.no_flag_win, t.base, t.plain_attack
        plain_flag, watches, flag_loss, takes_flag = (
            t.plain_flag,
            t.watch,
            t.flag_loss,
            t.takes_flag,
        )
        power, decks, auras, to_bench = self.power, self.deck, self.auras, self.to_bench
        simple, seat_key, can_freeze = t.bench_simple, t.seat_key, self.can_freeze
        lasting, during, pending = self.lasting, self.during, self.pending
        reveals = self.reveals  # counted here, stored back however the loop ends
        known: tuple[int, list[Any]] | None = None
        try:
            while True:
                d = 1 - a  # ``self.attacker`` is ``a`` (set by the opening and each flag change)
                attack = self.attack  # empty: new at the start, and at each flag change
                stack = self.stack
                top = stack[-1]
                watch = watches[spec[top]]
                deck = decks[a]
                # Powers change only when cards move or fans change (each bumps ``version``), so
                # the total and the defence are recomputed only then; otherwise the new card is
                # added.
                seen, total, defence = -1, 0, 0
                while True:
                    if not deck:
                        self.lose(a, "empty_deck")
                    if reveals >= REVEAL_LIMIT:
                        self.end(d, "reveal_limit")
                    reveals += 1
                    c = deck.pop()
                    bonus = pending[a]
                    if bonus:
                        lasting[c], during[c] = bonus
                        pending[a] = None
                    else:
                        lasting[c] = during[c] = 0
                    attack.append(c)
                    sp = spec[c]
                    if rec:
                        events = self.events
                        events.append(
                            {
                                "seq": len(events),
                                "kind": "reveal",
                                "side": SIDES[a],
                                "card": self.uid[c],
                                "key": t.keys[sp],
                            }
                        )
                    fn = on_reveal[sp]
                    if fn is not None:
                        if rec:
                            self._note_effect(a, c, "on_reveal")
                        fn(self, a, c)
                    if watch is not None:
                        if rec:
                            self._note_effect(d, top, "in_flag_possession")
                        watch(self, d, top)
                    if self.version == seen:
                        if plain[sp] and not auras[a]:
                            p = base[sp] + lasting[c] + during[c]
                            if p > 0:
                                total += p
                        elif rec:  # the power and its breakdown, for the attack event too
                            known = self._power_parts(a, c, True)
                            total += known[0]
                        else:
                            total += power(a, c, True)
                    else:
                        total = 0
                        if auras[a]:
                            for x in attack:
                                total += power(a, x, True)
                        else:
                            for x in attack:
                                sx = spec[x]
                                if plain[sx]:
                                    p = base[sx] + lasting[x] + during[x]
                                    if p > 0:
                                        total += p
                                else:
                                    total += power(a, x, True)
                        sx = spec[top]
                        if plain_flag[sx] and not auras[d]:
                            defence = base[sx] + lasting[top]
                            if defence < 0:
                                defence = 0
                        else:
                            defence = power(d, top, False)
                        seen = self.version
                    if rec:
                        self._attack_event(a, c, total, defence, known)
                        known = None
                    if total >= defence:
                        break
                    fn = no_flag_win[sp]
                    if fn is not None:
                        if rec:
                            self._note_effect(a, c, "no_flag_win")
                        fn(self, a, c)
                # The flag changes hands: Flag loss effect, the defender's stack to the bench (top
                # card first), the attack stacks (During the attack bonuses end), takes the flag.
                stack = self.stack
                top = stack[-1]
                fn = flag_loss[spec[top]]
                if fn is not None:
                    if rec:
                        self._note_effect(d, top, "flag_loss")
                    fn(self, d, top)
                self.version += 1
                if can_freeze[d]:
                    while stack:
                        to_bench(d, stack[-1], "flag", stack)
                else:
                    # Inlined ``to_bench`` and ``_open_seat`` (about a dozen cards a match go this
                    # way, most of them to a new seat): a card in ``bench_simple`` (one seat wide,
                    # no redirect, no From the bench bonus) joins its seat or opens one here; any
                    # other card goes through ``to_bench``. No free seat: ``d`` loses, and the
                    # match ends by ``finish`` and a return.
                    seat_of, slots = self.seat_of[d], self.bench[d]
                    while stack:
                        c = stack.pop()
                        sp = spec[c]
                        if not simple[sp]:
                            stack.append(c)
                            to_bench(d, c, "flag", stack)
                            continue
                        key = seat_key[sp]
                        i = seat_of.get(key, -1)
                        if i >= 0:
                            slots[i][1].append(c)
                        else:
                            try:
                                i = slots.index(None)
                            except ValueError:  # no free seat: ``d`` loses (the usual end)
                                self.unplaced[d].append(c)
                                self.finish(a, "bench_full")
                                return
                            slots[i] = [key, [c], -1]
                            seat_of[key] = i
                        if rec:
                            self._benched(d, c, i, "flag")
                # The attack stacks; its During the attack bonuses end: ``during`` is read only
                # for attacking cards, and every card's is set again when it is next revealed.
                attack = self.attack
                self.stack, self.attack = attack, []
                self.holder, self.attacker = a, d
                new = attack[-1]
                if rec:
                    uid, events = self.uid, self.events
                    events.append(
                        {
                            "seq": len(events),
                            "kind": "flag",
                            "side": SIDES[a],
                            "card": uid[new],
                            "key": t.keys[spec[new]],
                            "under": [uid[c] for c in reversed(attack[:-1])],
                        }
                    )
                fn = takes_flag[spec[new]]
                if fn is not None:
                    if rec:
                        self._note_effect(a, new, "takes_flag")
                    fn(self, a, new)
                if not forever:
                    return
                a = d
        finally:
            self.reveals = reveals

    def _note_effect(self, side: int, card: int, timing: str) -> None:
        events = self.events
        events.append(
            {
                "seq": len(events),
                "kind": "effect",
                "side": SIDES[side],
                "card": self.uid[card],
                "code": self.t.codes[self.spec[card]],
                "timing": timing,
            }
        )

    def lose(self, side: int, reason: str) -> None:
        """``side`` loses the match now."""
        self.end(1 - side, reason)

    def end(self, winner: int, reason: str) -> None:
        """The match ends now with ``winner`` (raises ``_End`` out of whatever is running)."""
        self.finish(winner, reason)
        raise _End

    def finish(self, winner: int, reason: str) -> None:
        """Set the winner and record the end (the caller stops playing)."""
        self.winner, self.reason = winner, reason
        if self.rec:
            events = self.events
            events.append(
                {"seq": len(events), "kind": "end", "winner": SIDES[winner], "reason": reason}
            )

    # ------------------------------------------------------------------ power

    def power(self, side: int, c: int, attacking: bool, parts: list[Any] | None = None) -> int:
        """The current power of card ``c`` of ``side`` (attacking, or holding the flag);
        ``parts`` (recording only) receives the breakdown ``[label, amount]``."""
        t = self.t
        sp = self.spec[c]
        lasting = self.lasting[c]
        if attacking:
            extra = self.during[c]
            fn = t.attack_fn[sp]
        else:
            extra = 0
            fn = t.flag_fn[sp]
        if fn is not None:
            extra += fn(self, side, c)
        bonus = lasting + extra
        auras = self.auras[side]
        if auras:  # the From the bench bonuses this card gets from ``side``'s bench
            spec, aura = self.spec, t.aura
            skip = HOLDING if attacking else ATTACKING
            for a in auras:
                amount, during, targets = aura[spec[a]]
                if during != skip and sp in targets:
                    bonus += amount
                    if parts is not None:
                        parts.append([t.bench_label[spec[a]], amount * t.mult[sp]])
        if parts is not None:
            mult = t.mult[sp]
            if extra:
                parts.insert(1, ["attack" if attacking else "flag", extra * mult])
            if lasting:
                parts.insert(1, ["reveal", lasting * mult])
        p = t.base[sp] + t.mult[sp] * bonus
        return p if p > 0 else 0

    def _power_parts(self, side: int, c: int, attacking: bool) -> tuple[int, list[Any]]:
        """A card's power and its breakdown ``[["base", n], [label, n]…]`` (recording)."""
        parts: list[Any] = [["base", self.t.base[self.spec[c]]]]
        return self.power(side, c, attacking, parts), parts

    def _attack_event(
        self, a: int, c: int, total: int, defence: int, known: tuple[int, list[Any]] | None
    ) -> None:
        """After a reveal: the revealed card's power (and how; ``known`` when computed
        already), the total against the defence."""
        sp = self.spec[c]
        t = self.t
        parts: list[Any]
        if known is not None:
            power, parts = known
        elif t.plain_attack[sp] and not self.auras[a]:
            base, lasting, during = t.base[sp], self.lasting[c], self.during[c]
            parts = [["base", base]]
            if lasting:
                parts.append(["reveal", lasting])
            if during:
                parts.append(["attack", during])
            power = base + lasting + during
            if power < 0:
                power = 0
        else:
            power, parts = self._power_parts(a, c, True)
        events = self.events
        events.append(
            {
                "seq": len(events),
                "kind": "attack",
                "side": SIDES[a],
                "card": self.uid[c],
                "power": power,
                "parts": parts,
                "total": total,
                "defence": defence,
            }
        )

    # ------------------------------------------------------------------ places

    def key_of(self, c: int) -> str:
        """The design key of card ``c``."""
        return self.t.keys[self.spec[c]]

    def bench_cards(self, side: int) -> list[int]:
        """Every card on ``side``'s bench (frozen seats excluded)."""
        return [c for seat in self.bench[side] if seat is not None for c in seat[1]]

    def bench_cards_in(self, side: int, specs: Container[int]) -> list[int]:
        """The cards on ``side``'s bench whose spec index is in ``specs``."""
        spec = self.spec
        return [
            c for seat in self.bench[side] if seat is not None for c in seat[1] if spec[c] in specs
        ]

    def empty_seats(self, side: int) -> int:
        """Free bench seats of ``side`` (a Troll's second seat is not free)."""
        return self.bench[side].count(None)

    def tokens(self, side: int) -> int:
        """The fan tokens ``side`` owns: at the start plus gained in this match."""
        return self.tokens0[side] + self.fans[side]

    def gain_fans(self, side: int, n: int, card: int) -> None:
        """``side`` gains ``n`` fan tokens through ``card``."""
        self.fans[side] += n
        self.version += 1
        if self.rec:
            self.emit("fans", side=SIDES[side], n=n, card=self.uid[card], total=self.fans[side])

    def to_bench(self, side: int, c: int, src: str, lift: list[int] | None = None) -> None:
        """Put ``c`` on ``side``'s bench (or where its own rule says); no seat: ``side`` loses.

        ``lift`` is the list whose last card is ``c``: it is lifted from there as it is placed,
        so a question asked on the way (freeze?) sees every card in exactly one place."""
        self.version += 1
        t = self.t
        sp = self.spec[c]
        if t.bench_plain[sp] and not self.can_freeze[side]:
            # The common case: a one-seat card, no frozen seat to offer.
            key = t.seat_key[sp]
            seat_of = self.seat_of[side]
            i = seat_of.get(key, -1)
            if lift is not None:
                lift.pop()
            if i >= 0:
                self.bench[side][i][1].append(c)
            else:
                i = self._open_seat(side, key, c)
        else:
            i = self._seat_special(side, c, sp, src, lift)
            if i < 0:
                return
        if t.is_aura[sp]:
            self.auras[side].append(c)
        if self.rec:
            self._benched(side, c, i, src)

    def _open_seat(self, side: int, key: str, c: int) -> int:
        """Seat ``c`` (one seat wide) on a free seat of ``side``'s bench, named ``key``; no free
        seat: ``c`` stays unplaced and ``side`` loses."""
        slots = self.bench[side]
        if None not in slots:
            self.unplaced[side].append(c)
            self.lose(side, "bench_full")
        i = slots.index(None)
        slots[i] = [key, [c], -1]
        self.seat_of[side][key] = i
        return i

    def _benched(self, side: int, c: int, i: int, src: str) -> None:
        """The ``benched`` event: ``c`` took seat ``i`` (recording)."""
        events = self.events
        events.append(
            {
                "seq": len(events),
                "kind": "benched",
                "side": SIDES[side],
                "card": self.uid[c],
                "seat": i,
                "src": src,
            }
        )

    def _seat_special(self, side: int, c: int, sp: int, src: str, lift: list[int] | None) -> int:
        """``to_bench`` for a redirected or wide card, or when a frozen seat may be offered:
        the seat taken, or -1 when the card went elsewhere (exhaust pile, frozen seat)."""
        t = self.t
        if t.bench_redirect[sp]:
            if lift is not None:
                lift.pop()
            self.to_exhaust(side, c, src)
            return -1
        key = t.seat_key[sp]
        seat_of = self.seat_of[side]
        i = seat_of.get(key, -1)
        width = t.width[sp]
        if self.can_freeze[side]:
            fits = i >= 0 or width <= self.empty_seats(side)
            if self._maybe_freeze(side, c, i >= 0, fits, lift):
                return -1
        if lift is not None:
            lift.pop()
        slots = self.bench[side]
        if i >= 0:
            slots[i][1].append(c)
            return i
        if width > slots.count(None):
            self.unplaced[side].append(c)
            self.lose(side, "troll_no_seats" if width > 1 else "bench_full")
        i = slots.index(None)
        pad = -1
        if width > 1:
            pad = slots.index(None, i + 1)
            slots[pad] = [None, [], -1]
        slots[i] = [key, [c], pad]
        seat_of[key] = i
        return i

    def _maybe_freeze(
        self, side: int, c: int, has_seat: bool, fits: bool, lift: list[int] | None
    ) -> bool:
        base = self.t.base[self.spec[c]]
        room = [i for i in (0, 1) if self.frozen_power[side][i] + base <= self.round_number]
        if not room:
            return False
        want = not fits or (not has_seat and not self.t.is_aura[self.spec[c]])
        default = (room[0],) if want else ()
        keys = tuple(self.key_of(c) for _ in room)
        answer = self.ask_values(side, "freeze", c, tuple(room), keys, 0, 1, default)
        if not answer:
            return False
        i = answer[0]
        if lift is not None:
            lift.pop()
        self.frozen[side][i].append(c)
        self.frozen_power[side][i] += base
        if self.rec:
            self.emit("frozen", side=SIDES[side], card=self.uid[c], seat=i)
        return True

    def bench_take(self, side: int, c: int) -> None:
        """Lift ``c`` off ``side``'s bench (the caller puts it somewhere)."""
        self.version += 1
        slots = self.bench[side]
        t, sp = self.t, self.spec[c]
        i = self.seat_of[side].get(t.seat_key[sp], -1)  # where a card sits, by its name
        if i < 0 or c not in slots[i][1]:  # a frozen or unseated card
            i = next((j for j in range(SEATS) if slots[j] is not None and c in slots[j][1]), -1)
        if i >= 0:
            seat = slots[i]
            cards = seat[1]
            cards.remove(c)
            if not cards:
                slots[i] = None
                del self.seat_of[side][seat[0]]
                if seat[2] >= 0:
                    slots[seat[2]] = None
        if t.is_aura[sp]:
            self.auras[side].remove(c)

    def take_from_play(self, c: int) -> str | None:
        """Lift ``c`` out of the flag stack or the attack; returns where it was."""
        if c in self.stack:
            self.stack.remove(c)
            return "flag"
        if c in self.attack:
            self.attack.remove(c)
            return "attack"
        return None

    def to_exhaust(self, side: int, c: int, src: str) -> None:
        """Put ``c`` on ``side``'s exhaust pile (a Dwarf goes on top of the deck instead)."""
        self.version += 1
        if self.t.exhaust_redirect[self.spec[c]]:
            self.to_deck(side, c, True, src)
            return
        self.exhaust[side].append(c)
        if self.rec:
            self._moved("exhausted", side, c, src, "exhaust")

    def to_deck(self, side: int, c: int, top: bool, src: str) -> None:
        """Put ``c`` on top of (or under) ``side``'s deck."""
        self.version += 1
        if top:
            self.deck[side].append(c)
        else:
            self.deck[side].insert(0, c)
        if self.rec:
            self._moved("moved", side, c, src, "deck_top" if top else "deck_bottom")

    def _moved(self, kind: str, side: int, c: int, src: str, to: str) -> None:
        """A card arrived somewhere; a card from a level pile is an ``added`` event."""
        if src.startswith("pile:"):
            kind, key, pile = "added", self.key_of(c), src[5:]
            self.emit(kind, side=SIDES[side], card=self.uid[c], key=key, pile=pile, to=to)
        else:
            events = self.events
            events.append(
                {
                    "seq": len(events),
                    "kind": kind,
                    "side": SIDES[side],
                    "card": self.uid[c],
                    "src": src,
                    "to": to,
                }
            )

    def remove(self, side: int, c: int, src: str) -> None:
        """Remove ``c`` from the game for good."""
        self.version += 1
        self.removed[side].append(c)
        if self.rec:
            self.emit("removed", side=SIDES[side], card=self.uid[c], src=src)

    def draw_pile(self, pile: str, side: int) -> int | None:
        """The top card of level pile ``pile``, now ``side``'s (``None`` when it is empty)."""
        taken = self.taken
        pos = taken[pile]
        refs = self.piles.get(pile, ())
        if pos >= len(refs):
            return None
        taken[pile] = pos + 1
        return self._new_card(refs[pos])

    def note_deck_order(self, side: int, card: int, tops: list[int], bottoms: list[int]) -> None:
        """Record where a look-at effect put cards (hidden information: the owner's eyes only)."""
        if self.rec:
            self.emit(
                "arranged",
                side=SIDES[side],
                card=self.uid[card],
                top=[self.uid[c] for c in tops],
                bottom=[self.uid[c] for c in bottoms],
            )

    # ------------------------------------------------------------------ choices

    def ask(
        self,
        side: int,
        kind: str,
        card: int,
        cards: Sequence[int],
        mn: int,
        mx: int,
        default: Sequence[int],
        prompt: str | Callable[[], str] | None = None,
    ) -> list[int]:
        """Ask ``side`` to choose among ``cards``; returns the chosen card ids."""
        if kind != "arrange_top" and mn == mx == len(cards):
            return list(cards)  # no real choice
        uid = self.uid
        if self.defaults[side] and len(self.answers) >= len(self.given):
            chosen = [uid[c] for c in default]
            if self.rec:
                self._default_answered(side, kind, card, [uid[c] for c in cards], mn, mx, chosen)
            self.answers.append(chosen)
            return list(default)
        options = tuple(uid[c] for c in cards)
        names, spec = self.t.keys, self.spec
        keys = tuple([names[spec[c]] for c in cards])
        chosen = self.ask_values(
            side, kind, card, options, keys, mn, mx, tuple(uid[c] for c in default), prompt
        )
        by_uid = dict(zip(options, cards, strict=True))
        return [by_uid[u] for u in chosen]

    def ask_values(
        self,
        side: int,
        kind: str,
        card: int,
        options: tuple[Any, ...],
        keys: tuple[str, ...],
        mn: int,
        mx: int,
        default: tuple[Any, ...],
        prompt: str | Callable[[], str] | None = None,
    ) -> list[Any]:
        """Ask ``side`` a question; no real choice (all options forced) asks nothing."""
        if kind != "arrange_top" and mn == mx == len(options):
            return list(options)  # no real choice
        if self.defaults[side] and len(self.answers) >= len(self.given):
            chosen = list(default)
            if self.rec:
                self._default_answered(side, kind, card, list(options), mn, mx, chosen)
            self.answers.append(chosen)
            return list(default)
        seq = len(self.answers)
        q = Question(
            seq,
            SIDES[side],
            kind,
            self.uid[card],
            self.key_of(card),
            options,
            mn,
            mx,
            (prompt() if callable(prompt) else prompt) or PROMPTS[kind],
            keys,
            default,
        )
        if self.rec:
            events = self.events
            events.append(
                {
                    "seq": len(events),
                    "kind": "question",
                    "q": seq,
                    "side": q.side,
                    "q_kind": kind,
                    "card": q.card,
                    "options": list(options),
                    "min": mn,
                    "max": mx,
                }
            )
        if seq < len(self.given):
            chosen = check_answer(q, self.given[seq])
        else:
            policy = self.policies[side]
            if policy is None:
                raise _Pause(q)
            try:
                chosen = check_answer(q, policy.answer(q))
            except InvalidAnswer as exc:
                raise InvalidAnswer(exc.code, f"Policy for {q.side}: {exc.message}") from None
        self.answers.append(chosen)
        if self.rec:
            events = self.events
            events.append(
                {
                    "seq": len(events),
                    "kind": "answer",
                    "q": seq,
                    "side": q.side,
                    "answer": list(chosen),
                }
            )
        return chosen

    def _default_answered(
        self,
        side: int,
        kind: str,
        card: int,
        options: list[Any],
        mn: int,
        mx: int,
        chosen: list[Any],
    ) -> None:
        """The ``question`` and ``answer`` events of a question the default policy answered."""
        events, seq, name = self.events, len(self.answers), SIDES[side]
        n = len(events)
        events.append(
            {
                "seq": n,
                "kind": "question",
                "q": seq,
                "side": name,
                "q_kind": kind,
                "card": self.uid[card],
                "options": options,
                "min": mn,
                "max": mx,
            }
        )
        events.append(
            {"seq": n + 1, "kind": "answer", "q": seq, "side": name, "answer": list(chosen)}
        )

    def choose_seat(self, side: int, card: int, kind: str, biggest_first: bool) -> int | None:
        """Ask ``side`` to pick one of its occupied bench seats (by slot index)."""
        slots = self.bench[side]
        seats = [i for i in range(SEATS) if slots[i] is not None and slots[i][1]]
        if not seats:
            return None
        aura = self.t.is_aura
        best = sorted(
            seats,
            key=lambda i: (any(aura[self.spec[c]] for c in slots[i][1]), -len(slots[i][1]), i),
        )
        keys = tuple(str(slots[i][0]) for i in seats)
        (seat,) = self.ask_values(side, kind, card, tuple(seats), keys, 1, 1, (best[0],))
        return int(seat)

    def by_power(self, cards: Sequence[int], highest: bool = True) -> list[int]:
        """``cards`` sorted by base power (highest first unless ``highest=False``), stable."""
        base, spec = self.t.base, self.spec
        keys = [-base[spec[c]] for c in cards] if highest else [base[spec[c]] for c in cards]
        return [cards[i] for i in sorted(range(len(cards)), key=keys.__getitem__)]

    def best_by_power(self, cards: Sequence[int], highest: bool = True) -> int:
        """``by_power(cards, highest)[0]``: the first card of the highest (lowest) base power."""
        base, spec = self.t.base, self.spec
        powers = [base[spec[c]] for c in cards]
        return cards[powers.index(max(powers) if highest else min(powers))]

    def seat_size(self, side: int, c: int) -> int:
        """How many cards share ``c``'s bench seat."""
        for seat in self.bench[side]:
            if seat is not None and c in seat[1]:
                return len(seat[1])
        return 0

    def default_bench_pick(
        self, side: int, cands: list[int], n: int, own: bool, to_deck: bool
    ) -> list[int]:
        """The default policy's pick of ``n`` bench cards (see ``policies``)."""
        base, spec, aura = self.t.base, self.spec, self.t.is_aura
        size: dict[int, int] = {}  # card -> how many cards share its seat (``seat_size``)
        for seat in self.bench[side]:
            if seat is not None:
                cards = seat[1]
                k = len(cards)
                for c in cards:
                    size[c] = k
        get = size.get
        keys: list[tuple[int, int, int]]
        if own:
            sign = -1 if to_deck else 1
            keys = [(get(c, 0), aura[spec[c]], sign * base[spec[c]]) for c in cands]
        else:
            keys = [(not aura[spec[c]], -get(c, 0), -base[spec[c]]) for c in cands]
        if n == 1:
            return [cands[keys.index(min(keys))]]
        return [cands[i] for i in sorted(range(len(cands)), key=keys.__getitem__)[:n]]

    # ------------------------------------------------------------------ result

    def owned(self, side: int) -> list[int]:
        """Every card ``side`` still owns (deck, flag or attack, bench, frozen, exhaust)."""
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
        """The ``MatchResult`` of a finished match (card places computed on access)."""
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
        """Each side's card uids as they stand after the match (``MatchResult.decks_after``)."""
        uid = self.uid.__getitem__
        return {"A": list(map(uid, self.owned(0))), "B": list(map(uid, self.owned(1)))}

    def removed_uids(self) -> dict[str, list[Any]]:
        """The uids of the cards each side removed from the game."""
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
    answers: Sequence[Any] = (),
) -> MatchResult | PendingQuestion:
    """Play one match. A side missing from ``policies`` uses ``DefaultPolicy``; a side mapped to
    ``None`` is a human: the match stops at its first unanswered question (``PendingQuestion``);
    replay with ``answers`` extended by the new answer to go on."""
    return Match(setup, seed, policies, record, answers).run()
