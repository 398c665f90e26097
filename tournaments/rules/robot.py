"""The Robot's deck (rules.md §3).

**Decisions** (isolated here so they can change when the printed rule is confirmed):
- The 8 R cards are the 6 R designs with a second copy of the two cheapest designs
  (``R_CARD_COPIES``). The catalogue says it is unknown which two designs have two copies.
- Difficulty L replaces 2x(L-1) randomly chosen start cards with as many randomly chosen R cards.
- With the solo special challenge on, each SOLO card joins the deck with probability ½.
"""

from __future__ import annotations

import random

START_CARDS = (
    "Robot/Alpha",
    "Robot/Beta",
    "Robot/Good Bot",
    "Robot/C.H.A.M.P.",
    "Robot/Cyborg",
    "Robot/Cyborg",
    "Robot/Cyborg",
    "Robot/Cyborg",
)
R_CARD_COPIES = {
    "Robot/Virtual Ghost": 2,
    "Robot/Cyborg-Friend": 2,
    "Robot/Mechanic": 1,
    "Robot/Robo-Knight": 1,
    "Robot/Drone": 1,
    "Robot/Necromech": 1,
}
SOLO_CARDS = ("Robot/Robogram", "Robot/Chatbot", "Robot/Autocorrect")
DIFFICULTIES = range(1, 6)


def r_cards() -> list[str]:
    """The eight R cards, one entry per physical card."""
    return [key for key, copies in R_CARD_COPIES.items() for _ in range(copies)]


def robot_deck(rng: random.Random, *, difficulty: int, solo_challenge: bool) -> list[str]:
    """The Robot's deck (card keys) for a tournament."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"Robot difficulty is 1 to 5, not {difficulty}")
    deck = list(START_CARDS)
    swaps = 2 * (difficulty - 1)
    replaced = sorted(rng.sample(range(len(deck)), swaps))
    for index, key in zip(replaced, rng.sample(r_cards(), swaps), strict=True):
        deck[index] = key
    if solo_challenge:
        deck.extend(key for key in SOLO_CARDS if rng.random() < 0.5)
    return deck
