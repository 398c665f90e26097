"""The draft advisor: each choice a seat has now, with its estimated chance to win.

It plays the same practice matches a steady bot plays (``practice.py``). The rival is a model of the
one the seat meets next. The model is built from what the seat may know. For the round's options,
each practice match drafts from a sampled display. The display is sampled from the pile's public
composition. For a display, each card is added to the seat's deck. Every choice plays the same
seeds.
"""

from __future__ import annotations

from typing import Required, TypedDict

from tournaments.rules.bots.levels import deck_keys
from tournaments.rules.bots.practice import Outlook, best_of_display, win_rate
from tournaments.rules.draft import DraftTurn, Table

ADVICE_KINDS = ("option", "card", "none")
"""What advice rates: the round's options, the display's cards, or nothing now."""


class Choice(TypedDict, total=False):
    """One choice rated: an option or a display card.

    An option has its index and text; a card has its uid and key.
    """

    option: int
    text: str
    card: int
    key: str
    win_probability: Required[float]
    sample_size: Required[int]


class Advice(TypedDict):
    """The advice now: its kind and the choices rated."""

    kind: str
    choices: list[Choice]


def advice_kind(turn: DraftTurn) -> str:
    """``option`` before the option is chosen, ``card`` while picks are left, else ``none``."""
    if turn.finished or turn.obligations:
        return "none"
    if turn.option is None and turn.options:
        return "option"
    if turn.drawn and turn.picks_left > 0 and turn.display:
        return "card"
    return "none"


def advise(turn: DraftTurn, table: Table, outlook: Outlook, sims: int) -> Advice:
    """``{"kind", "choices": [...]}``; each choice has ``win_probability`` and ``sample_size``."""
    kind = advice_kind(turn)
    deck = deck_keys(table)
    choices: list[Choice] = []
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
            rate = round(wins / sims, 4)
            choices.append(
                Choice(option=index, text=option.label, win_probability=rate, sample_size=sims)
            )
    elif kind == "card":
        for uid in sorted(turn.display):
            key = table.cards[uid].key
            rate = round(win_rate(outlook, [*deck, key], sims, label="advice"), 4)
            choices.append(Choice(card=uid, key=key, win_probability=rate, sample_size=sims))
    return Advice(kind=kind, choices=choices)
