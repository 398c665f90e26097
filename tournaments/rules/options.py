"""Tournament options: which sets are in play and what the host may choose (rules.md §1, §3, §4)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.rules.errors import OptionError
from tournaments.rules.winter import MODES

CITY = "City"
BASIC_SETS = {CITY: "base", "Rainbow": "beach_cup"}
ADDITIONAL_SETS = {
    "base": ("Castle", "Film Studio", "Funfair", "Haunted House", "Outer Space", "Shipwreck"),
    "beach_cup": (
        "Secret Base",
        "Beach Club",
        "Mountain Top",
        "University",
        "Toy Store",
        "Fairytale Forest",
    ),
}
ALL_ADDITIONAL = ADDITIONAL_SETS["base"] + ADDITIONAL_SETS["beach_cup"]
STARTER_SET = {"base": "Starter", "beach_cup": "Beach Cup Starter"}
SETS_IN_GAME = 5


@dataclass(frozen=True, slots=True)
class Options:
    """A checked set of tournament options."""

    seat_count: int
    basic_set: str
    additional_sets: tuple[str, ...]
    beach_cup: bool
    winter_mode: str
    robot_difficulty: int
    solo_challenge: bool

    @property
    def sets_in_play(self) -> tuple[str, ...]:
        return (self.basic_set, *self.additional_sets)

    @property
    def starter_set(self) -> str:
        return STARTER_SET[BASIC_SETS[self.basic_set]]


BOXES = {"base": (CITY, False), "beach_cup": ("Rainbow", True)}
"""A ``box`` preset: the basic set and whether the Beach Cup draft rules apply."""


def default_sets(rng: random.Random, box: str = "base") -> tuple[str, ...]:
    """Five random additional sets of ``box`` (the default: the base box's, alongside City)."""
    return tuple(sorted(rng.sample(ADDITIONAL_SETS[box], SETS_IN_GAME)))


def check_options(
    *,
    seat_count: int,
    basic_set: str,
    additional_sets: Sequence[str],
    beach_cup: bool,
    winter_mode: str,
    robot_difficulty: int,
    solo_challenge: bool,
) -> Options:
    """Refuse options the game does not allow; return them as ``Options``."""
    if not 1 <= seat_count <= 8:
        raise OptionError("bad_seat_count", "A tournament has 1 to 8 seats.", seat_count=seat_count)
    if basic_set not in BASIC_SETS:
        raise OptionError("bad_basic_set", "The basic set is City or Rainbow.", basic_set=basic_set)
    unknown = [name for name in additional_sets if name not in ALL_ADDITIONAL]
    if unknown:
        raise OptionError("unknown_set", "Unknown additional sets.", sets=unknown)
    if len(set(additional_sets)) != SETS_IN_GAME or len(additional_sets) != SETS_IN_GAME:
        raise OptionError("five_sets", "Choose exactly five different additional sets.")
    if winter_mode not in MODES:
        raise OptionError("bad_winter_mode", "Winter Park is off, normal or all.")
    if not 1 <= robot_difficulty <= 5:
        raise OptionError("bad_difficulty", "The Robot's difficulty is 1 to 5.")
    return Options(
        seat_count=seat_count,
        basic_set=basic_set,
        additional_sets=tuple(additional_sets),
        beach_cup=beach_cup,
        winter_mode=winter_mode,
        robot_difficulty=robot_difficulty,
        solo_challenge=solo_challenge,
    )
