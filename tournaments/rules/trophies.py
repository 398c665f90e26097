"""Trophy stacks: one per park, one trophy per round.

Each round's fans are dealt from its four values.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.rules.data import ROUNDS, trophy_fans


def deal_trophies(rng: random.Random, parks: Sequence[str]) -> dict[str, list[int]]:
    """Each park's stack as its trophies' fans for rounds 1-7.

    Index 0 is round 1. For every round the four printed trophies are shuffled. One goes to each
    park in use, as at the table. The unused ones go back to the box.
    """
    stacks: dict[str, list[int]] = {park: [] for park in parks}
    for round_number in range(1, ROUNDS + 1):
        fans = list(trophy_fans(round_number))
        rng.shuffle(fans)
        for park, value in zip(parks, fans, strict=False):
            stacks[park].append(value)
    return stacks
