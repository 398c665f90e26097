"""Fans, ranking, the Final's qualification and the 1-2 seat ending (rules.md §2.5).

All of it works on plain ``Standing`` values. Who may see which fans is the projection's business.
So these functions get only what the caller may count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.rules.data import ROUNDS

LEAD_TO_WIN = 11


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's scoring facts: fan tokens and its won trophies as (round, fans) pairs."""

    seat: int
    tokens: int
    trophies: tuple[tuple[int, int], ...] = ()

    @property
    def fans(self) -> int:
        return self.tokens + sum(fans for _, fans in self.trophies)

    @property
    def trophy_count(self) -> int:
        return len(self.trophies)

    @property
    def highest_round(self) -> int:
        return max((round_number for round_number, _ in self.trophies), default=0)

    def rank_key(self) -> tuple[int, int, int]:
        """Bigger is better: fans, then trophies, then the highest round's trophy."""
        return (self.fans, self.trophy_count, self.highest_round)


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """Best first. Equal keys keep seat order; the projection shows a tie."""
    return sorted(standings, key=lambda s: (tuple(-v for v in s.rank_key()), s.seat))


def finalists(standings: Sequence[Standing], rng: random.Random) -> tuple[int, int]:
    """The two seats that play the Final.

    **Decision:** seats may stay tied for a final place after fans, trophies and the highest-round
    trophy. Then a draw from the tournament's random stream orders them.
    """
    if len(standings) < 2:
        raise ValueError("A Final needs two seats")
    shuffled = list(standings)
    rng.shuffle(shuffled)
    order = sorted(shuffled, key=lambda s: tuple(-v for v in s.rank_key()))
    return (order[0].seat, order[1].seat)


def lead_winner(standings: Sequence[Standing]) -> int | None:
    """In a 1-2 seat game: the seat leading by 11 or more fans, if any."""
    if len(standings) != 2:
        raise ValueError("The 11-fan lead is checked between exactly two sides")
    first, second = sorted(standings, key=lambda s: -s.fans)
    return first.seat if first.fans - second.fans >= LEAD_TO_WIN else None


def winners_after_last_round(standings: Sequence[Standing]) -> list[int]:
    """In a 1-2 seat game after round 7: the winner, or both seats on a shared win."""
    best = max(s.rank_key() for s in standings)
    return sorted(s.seat for s in standings if s.rank_key() == best)


def scores(*, is_robot: bool, seat_count: int) -> bool:
    """Whether a seat counts in the standings. Players do; the Robot only in a solo game."""
    return not is_robot or seat_count == 1


def fans_secret(*, seat_count: int, rounds_completed: int) -> bool:
    """Whether trophy fans are still secret.

    At 3-8 seats they are until round 7 is over (rules 2.5).
    """
    return seat_count >= 3 and rounds_completed < ROUNDS
