"""The draft advisor: each choice a seat has now, with its estimated chance to win.

The same practice matches a steady bot plays (``practice.py``): against the model of the rival
the seat meets next, built from what the seat may know. For the round's options each practice
match drafts from a display sampled from the pile's public composition; for a display each card
is added to the seat's deck. Every choice plays the same seeds.
"""

from __future__ import annotations

from typing import Any

from tournaments.rules.bots.levels import deck_keys
from tournaments.rules.bots.practice import Outlook, best_of_display, win_rate
from tournaments.rules.draft import DraftTurn, Table

ADVICE_KINDS = ("option", "card", "none")
"""What advice rates: the round's options, the display's cards, or nothing now."""


def advice_kind(turn: DraftTurn) -> str:
    """``option`` before the option is chosen, ``card`` while picks are left, else ``none``."""
    if turn.finished or turn.obligations:
        return "none"
    if turn.option is None and turn.options:
        return "option"
    if turn.drawn and turn.picks_left > 0 and turn.display:
        return "card"
    return "none"


def advise(turn: DraftTurn, table: Table, outlook: Outlook, sims: int) -> dict[str, Any]:
    """``{"kind", "choices": [...]}``, each choice with ``win_probability`` and ``sample_size``."""
    kind = advice_kind(turn)
    deck = deck_keys(table)
    choices: list[dict[str, Any]] = []
    if kind == "option":
        for index, option in enumerate(turn.options):
            rng = outlook.rng("advice-option", index)
            pool = outlook.pools.get(option.pile, ())
            wins = sum(
                win_rate(
                    outlook,
                    [*deck, *best_of_display(pool, option.count, outlook.specs, rng)],
                    1,
                    label=f"advice{n}",
                )
                for n in range(sims)
            )
            choices.append(_choice({"option": index, "text": option.label}, wins / sims, sims))
    elif kind == "card":
        for uid in sorted(turn.display):
            key = table.cards[uid].key
            rate = win_rate(outlook, [*deck, key], sims, label="advice")
            choices.append(_choice({"card": uid, "key": key}, rate, sims))
    return {"kind": kind, "choices": choices}


def _choice(what: dict[str, object], rate: float, sims: int) -> dict[str, Any]:
    return {**what, "win_probability": round(rate, 4), "sample_size": sims}
