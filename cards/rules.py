"""What a card may be, by the rules (rules.md §1). Pure functions, no Django."""

from __future__ import annotations

from typing import Any, NamedTuple


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the gettext catalogues without importing Django.

    ``makemessages`` reads the name. The rules stay pure; ``cards.validation`` translates."""
    return message


class Problem(NamedTuple):
    """Why a card breaks a rule, translated where shown.

    The English ``template`` names its ``values`` as ``%(name)s``."""

    template: str
    values: dict[str, Any]

    def __str__(self) -> str:
        return self.template % self.values


# Which levels a set of each kind holds.
LEVELS_BY_KIND: dict[str, frozenset[str]] = {
    "basic": frozenset({"A", "B", "C"}),
    "additional": frozenset({"A", "B", "C"}),
    "starter": frozenset({"S"}),
    "robot": frozenset({"S", "R", "SOLO"}),
}

# The highest base power of a level, per box: A ≤ 3 (Beach Cup ≤ 4), B ≤ 5 (≤ 7), C ≤ 10 (≤ 11).
POWER_CAPS: dict[str, dict[str, int]] = {
    "base": {"A": 3, "B": 5, "C": 10},
    "beach_cup": {"A": 4, "B": 7, "C": 11},
}


def level_error(*, kind: str, level: str) -> Problem | None:
    """Why a ``kind`` set cannot hold a ``level`` card; None if it can."""
    allowed = LEVELS_BY_KIND.get(kind, frozenset())
    if level in allowed:
        return None
    names = "/".join(sorted(allowed)) or "no"
    template = gettext_noop("A set of kind %(kind)s holds %(names)s cards, not level %(level)s.")
    return Problem(template, {"kind": kind, "names": names, "level": level})


def power_error(*, box: str, level: str, power: int) -> Problem | None:
    """Why ``power`` is out of range for a ``level`` card of ``box``; None if not."""
    if power < 0:
        return Problem(gettext_noop("Power cannot be negative."), {})
    cap = POWER_CAPS.get(box, {}).get(level)
    if cap is not None and power > cap:
        template = gettext_noop(
            "A level %(level)s card of this box has a base power of at most %(cap)s."
        )
        return Problem(template, {"level": level, "cap": cap})
    return None


# An additional set as printed: 40 cards, with cards of each level the piles are made of.
ADDITIONAL_SET_COPIES = 40
PILE_LEVELS = ("A", "B", "C")


def additional_set_missing(
    *, retired: bool, copies: int, unknown_copies: int, levels: frozenset[str], broken: int = 0
) -> list[str]:
    """What keeps an additional set out of tournaments (rules.md §1); [] when it can play.

    ``copies`` counts the copies of its designs in play, retired designs left out.
    ``unknown_copies`` counts designs with an unknown copy count. ``levels`` are their
    levels. ``broken`` are the designs that break a catalogue rule (``cards.validation``).
    """
    missing = ["the set is retired"] if retired else []
    if broken:
        missing.append(f"{broken} card design(s) break the catalogue's rules")
    if unknown_copies:
        missing.append(f"{unknown_copies} card design(s) have no copy count")
    if copies != ADDITIONAL_SET_COPIES:
        missing.append(f"{copies} of {ADDITIONAL_SET_COPIES} copies")
    missing += [f"no level {level} card" for level in PILE_LEVELS if level not in levels]
    return missing
