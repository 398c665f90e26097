"""The tournament's rule data, read from the project catalogue.

It holds the draft options, trophy fans and parks. The catalogue data file is their single source.
Nothing here is hard-coded control flow. So a corrected table is a data change.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypedDict

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "cards" / "data" / "catalogue.json"
PARK_ORDER = ("green", "red", "purple", "yellow")
ROUNDS = 7
FINAL_ROUND = 8

_OPTION = re.compile(r"^(\d+) from ([ABC])(?: \(\+(\d+) fans\))?$")


@dataclass(frozen=True, slots=True)
class DraftOption:
    """One way to draft in a round: keep ``count`` cards of a display drawn from ``pile``."""

    pile: str
    count: int
    fans: int = 0

    @property
    def label(self) -> str:
        bonus = f" (+{self.fans} fans)" if self.fans else ""
        return f"{self.count} from {self.pile}{bonus}"


class DraftRound(TypedDict):
    """A draft table's round: its options as the catalogue writes them."""

    round: int
    options: list[str]


class DraftTables(TypedDict):
    base: list[DraftRound]
    beach_cup: list[DraftRound]


class StarterDecks(TypedDict):
    contents: list[str]  # the card names of one starter deck


class CatalogueData(TypedDict):
    """The parts of the catalogue data file the rules read (it holds more)."""

    starter_decks: StarterDecks
    draft: DraftTables
    trophy_fans_per_round: dict[str, list[int]]


@cache
def catalogue_data() -> CatalogueData:
    """The parsed catalogue data file (read once per process)."""
    with CATALOGUE_PATH.open(encoding="utf-8") as handle:
        data: CatalogueData = json.load(handle)
    return data


def parse_option(text: str) -> DraftOption:
    """Parse a catalogue option, e.g. ``"2 from A (+2 fans)"``."""
    match = _OPTION.match(text)
    if match is None:
        raise ValueError(f"Unreadable draft option {text!r}")
    count, pile, fans = match.groups()
    return DraftOption(pile=pile, count=int(count), fans=int(fans or 0))


def draft_options(*, beach_cup: bool, round_number: int) -> tuple[DraftOption, ...]:
    """The options a player chooses between in ``round_number``.

    A single option means no choice.
    """
    table = catalogue_data()["draft"]["beach_cup" if beach_cup else "base"]
    for row in table:
        if row["round"] == round_number:
            return tuple(parse_option(text) for text in row["options"])
    raise ValueError(f"No draft in round {round_number}")


def trophy_fans(round_number: int) -> tuple[int, ...]:
    """The fans printed on the four trophies of ``round_number``."""
    return tuple(catalogue_data()["trophy_fans_per_round"][str(round_number)])


def parks_for(table_size: int) -> tuple[str, ...]:
    """The parks in use at a table of ``table_size`` seats.

    The Robot counts as a seat.
    """
    if not 1 <= table_size <= 8:
        raise ValueError(f"A table has 1 to 8 seats, not {table_size}")
    return PARK_ORDER[: (table_size + 1) // 2]
