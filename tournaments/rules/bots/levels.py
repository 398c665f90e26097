"""The Deck Phase of the three bot levels.

* **rookie** — the simple heuristic (``heuristic.py``) with a little seeded noise in its taste.
* **steady** — picks, option and cuts by practice matches (``practice.py``) against the rival it
  meets next. The redraw and the When picked answers come from the heuristic.
* **champion** — searches each pick together with the cut it allows. The redraw and the option
  are practised too. It weighs every rival by the fans at stake (``rivals_by_stake`` in
  ``tournaments.rules.bots.stakes``). Its rival models include cards it saw them play.

Every action is one a person could take under the same rules. So no level can make an illegal move.
Every draw comes from the outlook's seed. So the same seed gives the same decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tournaments.rules.bots import heuristic
from tournaments.rules.bots.practice import Outlook, best_of_display, win_rate
from tournaments.rules.draft import DraftTurn, Table

Action = tuple[str, dict[str, Any]]
FAN_WORTH = 0.02
"""A fan token from a draft option is worth this much win rate (fans count in the race too)."""
CUT_MARGIN = 0.05
"""A cut must raise the win rate by this much (the practice matches are a noisy estimate)."""
MIN_DECK = 8
MAX_CUTS = 2
CUT_CANDIDATES = 2
CUT_POWER = 3
"""Only cards of at most this base power are tried as cuts."""


def keys_of(table: Table, uids: list[int]) -> list[str]:
    return [table.cards[uid].key for uid in uids]


def deck_keys(table: Table) -> list[str]:
    return keys_of(table, table.deck)


def _split(outlook: Outlook, parts: int) -> int:
    return max(outlook.budget // max(parts, 1), 4)


def best_option(turn: DraftTurn, table: Table, outlook: Outlook) -> int:
    """Each option's worth: its drafted cards in practice, plus its fans.

    The drafted cards are the best of displays sampled from the pile's public composition.
    """
    sims = _split(outlook, len(turn.options))
    deck = deck_keys(table)
    scores = []
    for index, option in enumerate(turn.options):
        rng = outlook.rng("option", index)
        pool = outlook.pools.get(option.pile, ())
        wins = 0.0
        for n in range(sims):
            drafted = best_of_display(pool, option.count, outlook.specs, rng)
            wins += win_rate(outlook, [*deck, *drafted], 1, label=f"option{n}")
        scores.append(wins / sims + option.fans * FAN_WORTH)
    return scores.index(max(scores))


def cut_candidates(table: Table, keep: int = MIN_DECK) -> list[int]:
    """The weakest cards worth trying to cut (one per name); none when the deck is small."""
    if len(table.deck) <= keep:
        return []
    by_name: dict[str, int] = {}
    for uid in sorted(table.deck, key=lambda u: (table.cards[u].power, u)):
        if table.cards[uid].power <= CUT_POWER:
            by_name.setdefault(table.cards[uid].key, uid)
    return list(by_name.values())[:CUT_CANDIDATES]


def _without(keys: list[str], key: str | None) -> list[str]:
    if key is None:
        return keys
    rest = list(keys)
    rest.remove(key)
    return rest


def scored_picks(
    turn: DraftTurn, table: Table, outlook: Outlook, *, with_cuts: bool
) -> list[tuple[float, int]]:
    """(win rate, card) of each display card, with its best cut when ``with_cuts``."""
    deck = deck_keys(table)
    cuts: list[str | None] = [None]
    if with_cuts:
        cuts += keys_of(table, cut_candidates(table)[:1])
    names = {table.cards[uid].key: uid for uid in sorted(turn.display)}
    sims = _split(outlook, len(names) * len(cuts))
    scored = []
    for key, uid in names.items():
        rates = [
            win_rate(outlook, _without([*deck, key], cut), sims, label="pick")
            - (CUT_MARGIN if cut else 0.0)
            for cut in cuts
        ]
        scored.append((max(rates), uid))
    return scored


def sim_pick(turn: DraftTurn, table: Table, outlook: Outlook, *, with_cuts: bool) -> int:
    scored = scored_picks(turn, table, outlook, with_cuts=with_cuts)
    best = max(scored, key=lambda pair: (pair[0], heuristic.card_value(table.cards[pair[1]])))
    return best[1]


def redraw_pays(turn: DraftTurn, table: Table, outlook: Outlook, best_rate: float) -> bool:
    """Champion: does a fresh display do better?

    The display is sampled from the pile's public composition.
    """
    option = turn.options[turn.option or 0]
    pool = outlook.pools.get(option.pile, ())
    rng = outlook.rng("redraw", len(turn.picked))
    deck = deck_keys(table)
    sims = _split(outlook, 2)
    wins = 0.0
    for n in range(sims):
        drafted = best_of_display(pool, 1, outlook.specs, rng)
        wins += win_rate(outlook, [*deck, *drafted], 1, label=f"pick{n}")
    return wins / sims > best_rate + CUT_MARGIN


def choose_cut(table: Table, outlook: Outlook) -> int | None:
    """The cut that raises the win rate most (by more than the margin), if any."""
    candidates = cut_candidates(table)
    if not candidates:
        return None
    deck = deck_keys(table)
    sims = _split(outlook, len(candidates) + 1)
    base = win_rate(outlook, deck, sims, label="cut")
    rates = {
        uid: win_rate(outlook, _without(deck, table.cards[uid].key), sims, label="cut")
        for uid in candidates
    }
    best = max(candidates, key=lambda uid: (rates[uid], -uid))
    return best if rates[best] > base + CUT_MARGIN else None


def _picks(turn: DraftTurn, table: Table, outlook: Outlook, champion: bool) -> Action:
    if not champion:
        if heuristic.bot_next_action(turn, table, round_number=outlook.round) == ("redraw", {}):
            return ("redraw", {})
        return ("pick", {"card": sim_pick(turn, table, outlook, with_cuts=False)})
    scored = scored_picks(turn, table, outlook, with_cuts=True)
    rate, uid = max(scored, key=lambda p: (p[0], heuristic.card_value(table.cards[p[1]])))
    if not turn.redraw_used and redraw_pays(turn, table, outlook, rate):
        return ("redraw", {})
    return ("pick", {"card": uid})


def practised_action(turn: DraftTurn, table: Table, outlook: Outlook) -> Action | None:
    """A steady or champion bot's next action. ``None`` when it has finished."""
    champion = outlook.level == "champion"
    if turn.finished:
        return None
    if turn.option is None and turn.options:
        return ("choose", {"option": best_option(turn, table, outlook)})
    if not turn.drawn or turn.obligations:
        return heuristic.bot_next_action(turn, table, round_number=outlook.round)
    if turn.picks_left > 0:
        return _picks(turn, table, outlook, champion)
    if len(turn.removed) < MAX_CUTS:
        cut = choose_cut(table, outlook)
        if cut is not None:
            return ("remove", {"cards": [cut]})
    return ("finish", {})


Policy = Callable[[DraftTurn, Table, Outlook], Action | None]
