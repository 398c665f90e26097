"""Choice policies: who answers a side's questions when no human does.

``DefaultPolicy`` answers every question with ``question.default``. The engine computes it per kind:

* ``bench_to_exhaust`` / ``bench_to_deck_top`` / ``bench_remove`` on your own bench: as many cards
  as allowed. Those in the smallest seats go first, freeing seats. From the bench cards go last,
  then the weakest. To the deck, the strongest instead. Chosen from the opponent's bench (Skier,
  Siren): as many as allowed. From the bench cards go first. Then cards from the fullest seats,
  which frees no seat. Then the strongest.
* ``seat_to_exhaust`` / ``power_per_card_in_seat``: the fullest seat without a From the bench card.
* ``search_deck``: to the top the highest base power, to the bottom the lowest.
* ``arrange_top``: by base power, highest first. So top slots get the strongest, the exhaust slot
  the weakest.
* ``peek_move``: the card goes (or stays) on top if its base power is 4 or more. Else it goes to the
  bottom.
* ``exhaust_to_deck``: the highest base power.
* ``freeze`` (Winter Park): freeze when the card would otherwise open a new seat. A From the bench
  card is not frozen for that. Also freeze when it cannot be benched at all. Otherwise bench it.

``RandomPolicy(seed)`` answers uniformly at random among valid answers (property tests, fuzzing).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from matches.engine.model import Question
from matches.engine.questions import PERMUTATION_KINDS


class DefaultPolicy:
    """The documented default answer of every question kind."""

    def answer(self, question: Question) -> Sequence[object]:
        return list(question.default)


class RandomPolicy:
    """A seeded random valid answer."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self.rng = random.Random(seed)

    def answer(self, question: Question) -> Sequence[object]:
        options = list(question.options)
        if question.kind in PERMUTATION_KINDS:
            self.rng.shuffle(options)
            return options
        n = self.rng.randint(question.min, min(question.max, len(options)))
        return self.rng.sample(options, n)
