"""The simple Deck Phase policy.

Rookie bots play it with a little noise, and so do seats that miss a deadline. It drafts for raw
strength:

- choose the option with the most expected power (a fan bonus counts as two points);
- redraw a display whose best card is weak for its pile;
- keep the strongest cards;
- pay for extra picks with the weakest deck card;
- from round 4 on, thin the deck of Newcomers while it keeps at least ``MIN_DECK`` cards.

Every decision goes through the actions a person uses. So a bot can never do what a person may not.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tournaments.rules.draft import DraftTurn, Table
from tournaments.rules.when_picked import CardFacts

EXPECTED_POWER = {"A": 2.5, "B": 4.0, "C": 6.0}
WEAK_BEST = {"A": 2, "B": 4, "C": 5}
MIN_DECK = 10
THIN_FROM_ROUND = 4

ROOKIE_NOISE = 1.5
"""How far (in power points) a rookie's taste strays from the card's worth, uniformly."""

Action = tuple[str, dict[str, Any]]


def card_value(facts: CardFacts) -> float:
    """How much the bot likes a card: its power, a little more when it has an effect."""
    bonus = 0.5 if facts.effect_code else 0.0
    return facts.power + bonus


def _noise(noise: random.Random | None) -> float:
    return noise.uniform(0.0, ROOKIE_NOISE) if noise is not None else 0.0


def choose_option(turn: DraftTurn, noise: random.Random | None = None) -> int:
    """The option with the most expected power, give or take ``noise``."""
    scores = [o.count * EXPECTED_POWER[o.pile] + o.fans + _noise(noise) for o in turn.options]
    return scores.index(max(scores))


def bot_next_action(
    turn: DraftTurn, table: Table, *, round_number: int, noise: random.Random | None = None
) -> Action | None:
    """The bot's next action in this Deck Phase, or ``None`` when it has finished.

    With ``noise`` (a rookie), a draw from it blurs each option's and card's worth. The same seed
    still gives the same decisions.
    """
    if turn.finished:
        return None
    if turn.option is None and turn.options:
        return ("choose", {"option": choose_option(turn, noise)})
    if not turn.drawn:
        return ("draw", {})
    if turn.obligations:
        return ("resolve", {"cards": _answer(turn, table)})
    if turn.picks_left > 0:
        return _pick_or_redraw(turn, table, noise)
    removal = _thinning(turn, table.deck, table.cards, round_number)
    if removal:
        return ("remove", {"cards": removal})
    return ("finish", {})


def _pick_or_redraw(turn: DraftTurn, table: Table, noise: random.Random | None) -> Action:
    worth = {uid: card_value(table.cards[uid]) + _noise(noise) for uid in turn.display}
    best = max(turn.display, key=worth.__getitem__)
    pile = turn.options[turn.option or 0].pile
    if not turn.redraw_used and table.cards[best].power < WEAK_BEST[pile]:
        return ("redraw", {})
    return ("pick", {"card": best})


def _answer(turn: DraftTurn, table: Table) -> list[int]:
    head = turn.obligations[0]
    if head.kind == "draw_keep":
        return [max(head.offered, key=lambda uid: card_value(table.cards[uid]))]
    eligible = sorted(
        head.eligible(table.deck, table.cards), key=lambda u: card_value(table.cards[u])
    )
    wants = head.is_mandatory(table.deck, table.cards) or len(table.deck) > MIN_DECK
    return eligible[: head.count] if wants and len(eligible) >= head.count else []


def _thinning(
    turn: DraftTurn, deck: list[int], cards: Mapping[int, CardFacts], round_number: int
) -> list[int]:
    if turn.removed or round_number < THIN_FROM_ROUND:
        return []
    spare = len(deck) - MIN_DECK
    weak = [uid for uid in deck if cards[uid].level == "S" and cards[uid].power == 1]
    return weak[: max(spare, 0)]
