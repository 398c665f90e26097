"""The effect registry: one small handler factory per effect code (``codes.EFFECT_PARAMS``).

A factory turns a card's params into what the engine calls at match time. It is compiled once per
card table (``table.Table``), never per reveal. Each registry entry names a **slot**:

* ``trigger``: ``fn(match, side, card)``, run at the card's catalogue timing. The timings are
  on_reveal, takes_flag, flag_loss and no_flag_win.
* ``attack`` / ``flag``: ``fn(match, side, card) -> int``, a bonus while attacking / while holding
  the flag. That is During the attack / In flag possession.
* ``watch``: ``fn(match, side, card)`` while this card holds the flag and the opponent reveals.
* ``aura``: a From the bench bonus ``(bonus, during, target spec indices)``.
* ``static``: ``fn(table, spec_index)``, changing a rule for this card (Special keyword…).

Sides are ints (0 = "A", 1 = "B"). Cards are the match's int card ids.

**Decisions (isolated here, one per handler):**

* Bench moves (``bench_*``) of several cards resolve in the chosen order. On the deck, the last
  chosen ends on top. A mandatory move with too few candidates moves what there is.
* ``arrange_top`` may have fewer cards than it looks at. It fills its slots in the card's printed
  order. That order (``FILL_ORDER``) depends on the match's rules version. Hacker with 1 card puts
  it at the bottom. With 2 it puts one at the bottom and one on top. It exhausts only when all 3 are
  there.
* ``search_deck``/``peek_move``/``arrange_top`` ask nothing on a deck too small to change.
* ``pile_to_*`` with an empty pile does nothing: the match does not see the piles' discards.
* ``cards_beneath`` (Puppet) counts the cards revealed before it in the same attack. An opening card
  has none beneath it.
* Fan tokens "you own" (Quarterback, Personal Coach) are tokens at the start + fans gained so far.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from matches.engine.codes import EFFECT_PARAMS, PICKED_CODES
from matches.engine.params import CardFilter, Condition, EffectParams

if TYPE_CHECKING:
    from matches.engine.match import Match
    from matches.engine.table import Table

Trigger = Callable[["Match", int, int], None]
Bonus = Callable[["Match", int, int], int]
Cond = Callable[["Match", int, int], bool]
Factory = Callable[[EffectParams, "Table"], Any]

HANDLERS: Final[dict[str, tuple[str, Factory]]] = {}

ALWAYS: Final = 0
ATTACKING: Final = 1
HOLDING: Final = 2
DURING: Final = {"always": ALWAYS, "attacking": ATTACKING, "holding": HOLDING}


def handler(code: str, slot: str) -> Callable[[Factory], Factory]:
    """Register ``fn`` as the factory for ``code`` in ``slot``."""

    def register(fn: Factory) -> Factory:
        assert code in EFFECT_PARAMS, code
        HANDLERS[code] = (slot, fn)
        return fn

    return register


# --------------------------------------------------------------------------- filters, conditions


def card_filter(flt: CardFilter | None, table: Table) -> frozenset[int]:
    """The spec indices of ``table`` that ``flt`` selects.

    See ``codes`` for the filter keys."""
    flt = flt or {}
    out = []
    for i in range(len(table.keys)):
        if "name" in flt and table.names[i] != flt["name"]:
            continue
        if "set" in flt and flt["set"] not in table.icons[i]:
            continue
        if "level" in flt and table.levels[i] != flt["level"]:
            continue
        base = table.base[i]
        if "power" in flt and base != flt["power"]:
            continue
        if "min_power" in flt and base < flt["min_power"]:
            continue
        if "max_power" in flt and base > flt["max_power"]:
            continue
        out.append(i)
    return frozenset(out)


def _bench_has(match: frozenset[int]) -> Cond:
    def test(m: Match, side: int, card: int) -> bool:
        spec_of = m.spec_of
        return any(spec_of[x] in match for x in m.bench_cards(side))

    return test


def _beneath(m: Match, side: int, card: int) -> bool:
    cards = m.attack if card in m.attack else m.stack
    return cards.index(card) > 0


def condition(when: Condition | None, table: Table) -> Cond | None:
    """Compile a condition into one predicate (``None`` for no condition)."""
    if not when:
        return None
    tests: list[Cond] = []
    if "trophies_at_most" in when:
        k = int(when["trophies_at_most"])
        tests.append(lambda m, s, c: m.trophies[s] <= k)
    if "deck_at_most" in when:
        n = int(when["deck_at_most"])
        tests.append(lambda m, s, c: len(m.deck[s]) <= n)
    if "lost_previous" in when:
        lost = bool(when["lost_previous"])
        tests.append(lambda m, s, c: m.lost_previous[s] == lost)
    if "bench_has" in when:
        tests.append(_bench_has(card_filter(when["bench_has"], table)))
    if "bench_lacks" in when:
        has = _bench_has(card_filter(when["bench_lacks"], table))
        tests.append(lambda m, s, c: not has(m, s, c))
    if "opponent_exhaust_at_least" in when:
        e = int(when["opponent_exhaust_at_least"])
        tests.append(lambda m, s, c: len(m.exhaust[1 - s]) >= e)
    if "cards_beneath" in when:
        want = bool(when["cards_beneath"])
        tests.append(lambda m, s, c: _beneath(m, s, c) == want)
    if len(tests) == 1:
        return tests[0]
    return lambda m, s, c: all(test(m, s, c) for test in tests)


def _target(params: EffectParams, key: str = "side") -> int:
    """0 = the card's owner, 1 = its opponent (``side: own|opponent``)."""
    return 1 if params.get(key, "own") == "opponent" else 0


# --------------------------------------------------------------------------- power snapshots


@handler("power_if", "trigger")
def _power_if(p: EffectParams, table: Table) -> Trigger:
    bonus, cond = int(p["bonus"]), condition(p.get("when"), table)

    def run(m: Match, side: int, card: int) -> None:
        if cond is None or cond(m, side, card):
            m.lasting[card] += bonus

    return run


@handler("power_per_bench_card", "trigger")
def _power_per_bench_card(p: EffectParams, table: Table) -> Trigger:
    per, match, other = int(p["per"]), card_filter(p.get("filter"), table), _target(p)

    def run(m: Match, side: int, card: int) -> None:
        m.lasting[card] += per * len(m.bench_cards_in(side ^ other, match))

    return run


@handler("power_per_bench_icon", "trigger")
def _power_per_bench_icon(p: EffectParams, table: Table) -> Trigger:
    per, other, icons = int(p["per"]), _target(p), table.icons

    def run(m: Match, side: int, card: int) -> None:
        seen: set[str] = set()
        for x in m.bench_cards(side ^ other):
            seen |= icons[m.spec_of[x]]
        m.lasting[card] += per * len(seen)

    return run


@handler("power_per_distinct_power", "trigger")
def _power_per_distinct_power(p: EffectParams, table: Table) -> Trigger:
    per, base = int(p["per"]), table.base

    def run(m: Match, side: int, card: int) -> None:
        m.lasting[card] += per * len({base[m.spec_of[x]] for x in m.bench_cards(side)})

    return run


@handler("power_per_empty_seat", "trigger")
def _power_per_empty_seat(p: EffectParams, table: Table) -> Trigger:
    per = int(p["per"])

    def run(m: Match, side: int, card: int) -> None:
        m.lasting[card] += per * m.empty_seats(side)

    return run


@handler("power_per_fan_tokens", "trigger")
def _power_per_fan_tokens(p: EffectParams, table: Table) -> Trigger:
    per, group = int(p["per"]), int(p.get("group", 1))

    def run(m: Match, side: int, card: int) -> None:
        m.lasting[card] += per * (m.tokens(side) // group)

    return run


@handler("power_per_card_in_seat", "trigger")
def _power_per_card_in_seat(p: EffectParams, table: Table) -> Trigger:
    per = int(p["per"])

    def run(m: Match, side: int, card: int) -> None:
        seat = m.choose_seat(side, card, "power_per_card_in_seat", biggest_first=True)
        if seat is not None:
            m.lasting[card] += per * len(m.bench[side][seat][1])

    return run


@handler("next_reveal_bonus", "trigger")
def _next_reveal_bonus(p: EffectParams, table: Table) -> Trigger:
    bonus, during = int(p["bonus"]), int(bool(p.get("during_attack", False)))

    def run(m: Match, side: int, card: int) -> None:
        pending = m.pending[side] or [0, 0]  # [lasting, during] for the next card revealed
        pending[during] += bonus
        m.pending[side] = pending

    return run


# --------------------------------------------------------------------------- lasting modifiers

_COUNTS: Final[dict[str, Bonus]] = {
    "one": lambda m, s, c: 1,
    "opponent_trophies": lambda m, s, c: m.trophies[1 - s],
    "own_exhaust": lambda m, s, c: len(m.exhaust[s]),
    "own_fan_tokens": lambda m, s, c: m.tokens(s),
    "empty_seats": lambda m, s, c: m.empty_seats(s),
}


def _per_count(p: EffectParams) -> Bonus:
    per, count = int(p["per"]), str(p.get("count", "one"))
    counter = _COUNTS[count]
    if count == "one":
        return lambda m, s, c: per
    return lambda m, s, c: per * counter(m, s, c)


@handler("attack_bonus", "attack")
def _attack_bonus(p: EffectParams, table: Table) -> Bonus:
    return _per_count(p)


@handler("flag_bonus", "flag")
def _flag_bonus(p: EffectParams, table: Table) -> Bonus:
    return _per_count(p)


@handler("bench_aura", "aura")
def _bench_aura(p: EffectParams, table: Table) -> tuple[int, int, frozenset[int]]:
    return (
        int(p["bonus"]),
        DURING[str(p.get("during", "always"))],
        card_filter(p.get("filter"), table),
    )


@handler("fans_per_attacker_reveal", "watch")
def _fans_per_attacker_reveal(p: EffectParams, table: Table) -> Trigger:
    n = int(p["n"])

    def run(m: Match, side: int, card: int) -> None:
        m.gain_fans(side, n, card)

    return run


# --------------------------------------------------------------------------- fans, end


@handler("gain_fans", "trigger")
def _gain_fans(p: EffectParams, table: Table) -> Trigger:
    n, other, cond = int(p["n"]), _target(p), condition(p.get("when"), table)

    def run(m: Match, side: int, card: int) -> None:
        if cond is None or cond(m, side, card):
            m.gain_fans(side ^ other, n, card)

    return run


@handler("lose_if", "trigger")
def _lose_if(p: EffectParams, table: Table) -> Trigger:
    reason, cond = str(p.get("reason", "card_effect")), condition(p.get("when"), table)

    def run(m: Match, side: int, card: int) -> None:
        if cond is None or cond(m, side, card):
            m.lose(side, reason)

    return run


# --------------------------------------------------------------------------- moving cards


def _bench_move(code: str, dest: str) -> Factory:
    def factory(p: EffectParams, table: Table) -> Trigger:
        least, most = int(p.get("min", 0)), int(p.get("max", 1))
        match = card_filter(p.get("filter"), table) if p.get("filter") else None
        other, chooser = _target(p), _target(p, "chooser")
        lowest, bonus, base = bool(p.get("lowest", False)), int(p.get("bonus", 0)), table.base

        def run(m: Match, side: int, card: int) -> None:
            target, chooser_side, spec_of = side ^ other, side ^ chooser, m.spec_of
            cands = m.bench_cards(target) if match is None else m.bench_cards_in(target, match)
            if lowest and cands:
                low = min(base[spec_of[x]] for x in cands)
                cands = [x for x in cands if base[spec_of[x]] == low]
            if not cands or most == 0:
                return
            up_to = min(most, len(cands))
            own, to_deck = chooser_side == target, dest == "deck"
            default = m.default_bench_pick(target, cands, up_to, own=own, to_deck=to_deck)
            chosen = m.ask(chooser_side, code, card, cands, min(least, up_to), up_to, default)
            for x in chosen:
                m.bench_take(target, x)
                if dest == "exhaust":
                    m.to_exhaust(target, x, "bench")
                elif dest == "deck":
                    m.to_deck(target, x, True, "bench")
                else:
                    m.remove(target, x, "bench")
            if bonus and chosen:
                m.lasting[card] += bonus

        return run

    return factory


handler("bench_to_exhaust", "trigger")(_bench_move("bench_to_exhaust", "exhaust"))
handler("bench_to_deck_top", "trigger")(_bench_move("bench_to_deck_top", "deck"))
handler("bench_remove", "trigger")(_bench_move("bench_remove", "remove"))


@handler("seat_to_exhaust", "trigger")
def _seat_to_exhaust(p: EffectParams, table: Table) -> Trigger:
    def run(m: Match, side: int, card: int) -> None:
        seat = m.choose_seat(side, card, "seat_to_exhaust", biggest_first=True)
        if seat is None:
            return
        for x in list(m.bench[side][seat][1]):
            m.bench_take(side, x)
            m.to_exhaust(side, x, "bench")

    return run


@handler("deck_to_exhaust", "trigger")
def _deck_to_exhaust(p: EffectParams, table: Table) -> Trigger:
    other, bottom = _target(p), p.get("end", "top") == "bottom"
    cond = condition(p.get("when"), table)

    def run(m: Match, side: int, card: int) -> None:
        tgt = side ^ other
        deck = m.deck[tgt]
        if deck and (cond is None or cond(m, side, card)):
            m.to_exhaust(tgt, deck.pop(0) if bottom else deck.pop(), "deck")

    return run


@handler("deck_to_bench", "trigger")
def _deck_to_bench(p: EffectParams, table: Table) -> Trigger:
    other = _target(p)

    def run(m: Match, side: int, card: int) -> None:
        deck = m.deck[side ^ other]
        if deck:
            m.to_bench(side ^ other, deck[-1], "deck", deck)

    return run


@handler("exhaust_to_deck", "trigger")
def _exhaust_to_deck(p: EffectParams, table: Table) -> Trigger:
    top = p.get("to", "bottom") == "top"

    def run(m: Match, side: int, card: int) -> None:
        pile = m.exhaust[side]
        if not pile:
            return
        default = [m.best_by_power(pile, highest=True)]
        (x,) = m.ask(side, "exhaust_to_deck", card, list(pile), 1, 1, default)
        pile.remove(x)
        m.to_deck(side, x, top, "exhaust")

    return run


@handler("pile_to_deck", "trigger")
def _pile_to_deck(p: EffectParams, table: Table) -> Trigger:
    pile, n, top, other = str(p["pile"]), int(p.get("n", 1)), p.get("to") == "top", _target(p)

    def run(m: Match, side: int, card: int) -> None:
        for _ in range(n):
            x = m.draw_pile(pile, side ^ other)
            if x is None:
                return
            m.to_deck(side ^ other, x, top, "pile:" + pile)

    return run


@handler("pile_to_exhaust", "trigger")
def _pile_to_exhaust(p: EffectParams, table: Table) -> Trigger:
    pile, n = str(p["pile"]), int(p.get("n", 1))

    def run(m: Match, side: int, card: int) -> None:
        for _ in range(n):
            x = m.draw_pile(pile, side)
            if x is None:
                return
            m.to_exhaust(side, x, "pile:" + pile)

    return run


def _arrange_prompt(top: int, bottom: int, exhaust: int) -> str:
    prompt = f"Order: the first {top} back on top (first = top)"
    prompt += f", then {bottom} to the bottom" if bottom else ""
    return prompt + (f", then {exhaust} to your exhaust pile" if exhaust else "")


FILL_ORDER: Final[dict[int, tuple[str, ...]]] = {
    1: ("exhaust", "bottom", "top"),
    2: ("bottom", "top", "exhaust"),
}
"""The order a look-at effect fills its slots when the deck holds fewer cards than it looks at,
per rules version (``model.RULES_VERSIONS``). Version 2 is the order the cards print them:
Hacker "one at the bottom, one back on top, and one on your exhaust pile"; Reporter and
Navigator print top, then bottom, but with one card the top and the bottom are the same place
(recorded as the bottom in both versions), and Juggler and Bumper Car have the top slot alone."""


def _arrange_slots(k: int, top: int, bottom: int, exhaust: int, version: int) -> tuple[int, ...]:
    """Where ``k`` looked-at cards go: how many on top, to the bottom, to exhaust.

    The slots hold ``top``, ``bottom`` and ``exhaust`` cards. Rules ``version`` decides the fill
    order."""
    sizes, left = {"top": top, "bottom": bottom, "exhaust": exhaust}, k
    filled: dict[str, int] = {}
    for slot in FILL_ORDER[version]:
        filled[slot] = min(sizes[slot], left)
        left -= filled[slot]
    return filled["top"], filled["bottom"], filled["exhaust"]


@handler("arrange_top", "trigger")
def _arrange_top(p: EffectParams, table: Table) -> Trigger:
    n, bottom, exhaust = int(p["n"]), int(p.get("bottom", 0)), int(p.get("exhaust", 0))
    top = max(n - bottom - exhaust, 0)

    def run(m: Match, side: int, card: int) -> None:
        deck = m.deck[side]
        k = min(n, len(deck))
        to, bo, ex = _arrange_slots(k, top, bottom, exhaust, m.setup.rules_version)
        if k == 0 or (k == 1 and not ex and not bo):
            return
        seen = deck[-k:][::-1]
        order = seen
        if k > 1:
            prompt = partial(_arrange_prompt, to, bo, ex)
            order = m.ask(side, "arrange_top", card, seen, k, k, m.by_power(seen), prompt=prompt)
        del deck[-k:]
        tops, bots, exs = order[:to], order[to : to + bo], order[to + bo :]
        deck.extend(reversed(tops))
        for x in bots:
            deck.insert(0, x)
        for x in exs:
            m.to_exhaust(side, x, "deck")
        if m.log is not None:
            m.log.arranged(side, card, tops, bots)

    return run


@handler("peek_move", "trigger")
def _peek_move(p: EffectParams, table: Table) -> Trigger:
    from_bottom, base = p.get("end", "top") == "bottom", table.base

    def run(m: Match, side: int, card: int) -> None:
        deck = m.deck[side]
        if len(deck) < 2:
            return
        x = deck[0] if from_bottom else deck[-1]
        default = "top" if base[m.spec_of[x]] >= 4 else "bottom"
        key = m.key_of(x)
        (where,) = m.ask(side, "peek_move", card, ("top", "bottom"), 1, 1, (default,), (key, key))
        if from_bottom and where == "top":
            deck.append(deck.pop(0))
        elif not from_bottom and where == "bottom":
            deck.insert(0, deck.pop())
        if m.log is not None:
            top = [x] if where == "top" else []
            m.log.arranged(side, card, top, [] if top else [x])

    return run


@handler("search_deck", "trigger")
def _search_deck(p: EffectParams, table: Table) -> Trigger:
    top = p.get("to", "top") == "top"

    def run(m: Match, side: int, card: int) -> None:
        deck = m.deck[side]
        if len(deck) < 2:
            return
        cands = deck[::-1]
        default = [m.best_by_power(cands, highest=top)]
        (x,) = m.ask(side, "search_deck", card, cands, 1, 1, default)
        deck.remove(x)
        if top:
            deck.append(x)
        else:
            deck.insert(0, x)
        if m.log is not None:
            m.log.arranged(side, card, [x] if top else [], [] if top else [x])

    return run


@handler("self_to", "trigger")
def _self_to(p: EffectParams, table: Table) -> Trigger:
    to = str(p["to"])

    def run(m: Match, side: int, card: int) -> None:
        src = m.take_from_play(card)
        if src is None:
            return
        if to == "exhaust":
            m.to_exhaust(side, card, src)
        else:
            m.remove(side, card, src)

    return run


@handler("steps", "trigger")
def _steps(p: EffectParams, table: Table) -> Trigger:
    runs: list[Trigger] = []
    for step in p["steps"]:
        slot, factory = HANDLERS[step["code"]]
        assert slot == "trigger", step
        runs.append(factory(step.get("params") or {}, table))

    def run(m: Match, side: int, card: int) -> None:
        for fn in runs:
            fn(m, side, card)

    return run


# --------------------------------------------------------------------------- static rules


def _static(fn: Callable[[EffectParams, Table, int], None]) -> Factory:
    def factory(p: EffectParams, table: Table) -> Callable[[Table, int], None]:
        return lambda table, i: fn(p, table, i)

    return factory


def _set_bench_redirect(p: EffectParams, table: Table, i: int) -> None:
    table.bench_redirect[i] = True


def _set_exhaust_redirect(p: EffectParams, table: Table, i: int) -> None:
    table.exhaust_redirect[i] = True


def _set_seat_name(p: EffectParams, table: Table, i: int) -> None:
    table.seat_name[i] = str(p["name"])


def _set_seat_width(p: EffectParams, table: Table, i: int) -> None:
    table.width[i] = int(p.get("n", 2))


def _set_factor(p: EffectParams, table: Table, i: int) -> None:
    table.factor[i] = int(p.get("factor", 2))


def _set_round_power(p: EffectParams, table: Table, i: int) -> None:
    table.base[i] = table.round_number


handler("bench_redirect", "static")(_static(_set_bench_redirect))
handler("exhaust_redirect", "static")(_static(_set_exhaust_redirect))
handler("bench_seat_as", "static")(_static(_set_seat_name))
handler("bench_seats", "static")(_static(_set_seat_width))
handler("double_bonuses", "static")(_static(_set_factor))
handler("power_equals_round", "static")(_static(_set_round_power))

_missing = set(EFFECT_PARAMS) - PICKED_CODES - set(HANDLERS)
assert not _missing, f"effect codes without a handler: {sorted(_missing)}"
