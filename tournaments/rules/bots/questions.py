"""How each bot level answers its cards' questions during a match.

* rookie — the documented default answer. But one question in ``ROOKIE_SLIP`` gets a random valid
  answer. It is drawn from the match seed, the side and the question's number. So a re-run from
  the stored answers asks and answers the same.
* steady — the engine's default answers (``DefaultPolicy``: free bench seats, keep the strongest
  cards on top, …).
* champion — each question answered by simulation from what its side may know
  (``foresight.ChampionPolicy``). That module says exactly what it sees, and its budget.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from matches.engine import DefaultPolicy, RandomPolicy
from matches.engine.model import Policy, Question
from tournaments.rules.bots.foresight import ChampionPolicy

ROOKIE_SLIP = 0.25


class RookiePolicy:
    """Mostly the default answer, now and then a random one (deterministic per question)."""

    def __init__(self, seed: object, side: str) -> None:
        self.seed, self.side = seed, side

    def answer(self, question: Question) -> Sequence[object]:
        rng = random.Random(f"{self.seed}:{self.side}:{question.seq}")
        if rng.random() < ROOKIE_SLIP:
            return RandomPolicy(rng.getrandbits(32)).answer(question)
        return list(question.default)


def question_policy(level: str, *, seed: object, side: str) -> Policy:
    """The policy a seat of ``level`` answers with (``""``: a person's default)."""
    if level == "rookie":
        return RookiePolicy(seed, side)
    if level == "champion":
        return ChampionPolicy(seed, side)
    return DefaultPolicy()
