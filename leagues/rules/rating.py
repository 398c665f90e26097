"""The league rating: openskill's Weng-Lin model (Plackett-Luce).

It rates each tournament's final order. Plain values go in and out, with no Django. The services
store what it returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The displayed rating: ``mu - 3 sigma``. It rises as the uncertainty falls."""
        return self.mu - 3 * self.sigma


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def initial() -> Skill:
    return Skill(model().mu, model().sigma)


def rate(before: Mapping[int, Skill], places: Mapping[int, int]) -> dict[int, Skill]:
    """Everyone's skill after one tournament.

    ``places`` maps each key to its place: 1 is best, and equal places drew. ``before`` holds the
    known skills. A new key starts at ``initial()``.
    """
    keys: Sequence[int] = sorted(places)
    if len(keys) < 2:  # nobody to compare with: nothing learned
        return {key: before.get(key, initial()) for key in keys}
    teams = [
        [model().create_rating([s.mu, s.sigma])]
        for s in (before.get(key, initial()) for key in keys)
    ]
    rated = model().rate(teams, ranks=[float(places[key]) for key in keys])
    return {key: Skill(team[0].mu, team[0].sigma) for key, team in zip(keys, rated, strict=True)}
