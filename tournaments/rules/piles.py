"""The A/B/C level piles: draw from the top, put back to the discard, reshuffle when empty."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

LEVELS = ("A", "B", "C")


@dataclass(slots=True)
class Pile:
    """One level pile. ``cards`` is top first; ``discard`` holds cards put back."""

    level: str
    cards: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)

    def draw(self, count: int, rng: random.Random) -> list[int]:
        """Draw up to ``count`` cards.

        An empty pile first reshuffles its discard into itself.
        """
        drawn: list[int] = []
        while len(drawn) < count:
            if not self.cards:
                if not self.discard:
                    break
                self.reshuffle(rng)
            drawn.append(self.cards.pop(0))
        return drawn

    def reshuffle(self, rng: random.Random) -> None:
        self.cards = self.discard
        self.discard = []
        rng.shuffle(self.cards)

    def put_back(self, uids: list[int]) -> None:
        self.discard.extend(uids)
