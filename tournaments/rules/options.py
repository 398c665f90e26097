"""Tournament options: which sets are in play, and what the host may choose.

See rules.md §1, §3 and §4.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.rules.errors import OptionError, gettext_noop
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
PRINTED_ADDITIONAL = ADDITIONAL_SETS["base"] + ADDITIONAL_SETS["beach_cup"]
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


def known_sets(set_problems: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Every additional set, with what keeps it out of play.

    First come the printed twelve, as the catalogue qualifies them (retired, incomplete). Then come
    the sets a curator added. A printed set missing from the catalogue counts as playable. That
    happens in a database without the catalogue loaded.
    """
    printed: dict[str, list[str]] = {name: [] for name in PRINTED_ADDITIONAL}
    return printed | {name: list(missing) for name, missing in set_problems.items()}


def default_sets(
    rng: random.Random, set_problems: Mapping[str, Sequence[str]], box: str = "base"
) -> tuple[str, ...]:
    """Five random playable additional sets of ``box``.

    ``box`` defaults to the base box, the one with City. If fewer than five of its sets are
    playable, they come from every playable set.
    """
    playable = [name for name, missing in known_sets(set_problems).items() if not missing]
    of_box = [name for name in ADDITIONAL_SETS[box] if name in playable]
    pool = of_box if len(of_box) >= SETS_IN_GAME else sorted(playable)
    return tuple(sorted(rng.sample(pool, min(SETS_IN_GAME, len(pool)))))


def check_options(
    *,
    seat_count: int,
    basic_set: str,
    additional_sets: Sequence[str],
    beach_cup: bool,
    winter_mode: str,
    robot_difficulty: int,
    solo_challenge: bool,
    set_problems: Mapping[str, Sequence[str]],
) -> Options:
    """Refuse options the game does not allow. Return them as ``Options``.

    ``set_problems`` names each additional set of the catalogue with what keeps it out of play. It
    is empty for a set that can play. A curator's new set plays like a printed one.
    """
    if not 1 <= seat_count <= 8:
        raise OptionError(
            "bad_seat_count", gettext_noop("A tournament has 1 to 8 seats."), seat_count=seat_count
        )
    if basic_set not in BASIC_SETS:
        raise OptionError(
            "bad_basic_set", gettext_noop("The basic set is City or Rainbow."), basic_set=basic_set
        )
    _check_sets(additional_sets, known_sets(set_problems))
    if len(set(additional_sets)) != SETS_IN_GAME or len(additional_sets) != SETS_IN_GAME:
        raise OptionError(
            "five_sets", gettext_noop("Choose exactly five different additional sets.")
        )
    if winter_mode not in MODES:
        raise OptionError("bad_winter_mode", gettext_noop("Winter Park is off, normal or all."))
    if not 1 <= robot_difficulty <= 5:
        raise OptionError("bad_difficulty", gettext_noop("The Robot's difficulty is 1 to 5."))
    return Options(
        seat_count=seat_count,
        basic_set=basic_set,
        additional_sets=tuple(additional_sets),
        beach_cup=beach_cup,
        winter_mode=winter_mode,
        robot_difficulty=robot_difficulty,
        solo_challenge=solo_challenge,
    )


def _check_sets(chosen: Sequence[str], set_problems: Mapping[str, Sequence[str]]) -> None:
    unknown = [name for name in chosen if name not in set_problems]
    if unknown:
        playable = [name for name, missing in set_problems.items() if not missing]
        message = gettext_noop("Unknown additional sets.")
        raise OptionError("unknown_set", message, sets=unknown, known=playable)
    incomplete = {name: list(set_problems[name]) for name in chosen if set_problems[name]}
    if incomplete:
        named = "; ".join(f"{name}: {', '.join(missing)}" for name, missing in incomplete.items())
        message = gettext_noop("Not every set can be played (%(listing)s).")
        raise OptionError("set_incomplete", message, sets=incomplete, listing=named)
