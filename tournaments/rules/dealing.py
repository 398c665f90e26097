"""What a tournament's start deals from its seed: the Deck Phase's setup.

It deals the card uids and each starter deck. It deals the level piles in their order, and the
Robot's deck (docs/protocol.md §15).

It is pure. The server deals a new tournament with it. The verifier re-derives the same deal. It
uses the revealed seed and the frozen card data. That data holds every design with its ``copies``
and ``starter_copies``. So the two can never drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.rules.options import BASIC_SETS, STARTER_SET
from tournaments.rules.piles import LEVELS
from tournaments.rules.robot import robot_deck
from tournaments.rules.seeds import stream

Entry = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards a tournament starts with, as uids.

    ``keys`` names each uid's design.
    """

    starter: dict[int, list[int]]  # by seat number
    piles: dict[str, list[int]]  # top card first
    robot: list[int] | None
    keys: dict[int, str] = field(default_factory=dict)


def key_of(entry: Entry) -> str:
    return f"{entry['set']}/{entry['name']}"


def starter_keys(entries: Iterable[Entry], basic_set: str) -> list[str]:
    """One starter deck (by key), in minting order.

    It holds the starter set's designs by level, power and name, each ``starter_copies`` times.
    """
    starter = STARTER_SET[BASIC_SETS[basic_set]]
    mine = [e for e in entries if e["set"] == starter]
    mine.sort(key=lambda e: (e["level"], 0 if e["power"] == "round" else e["power"], e["name"]))
    return [key_of(e) for e in mine for _ in range(e.get("starter_copies") or 0)]


def pile_keys(entries: Iterable[Entry], sets: Iterable[str]) -> dict[str, list[str]]:
    """Each level pile's cards, by key.

    Every design of a set in play is there ``copies`` times.
    """
    in_play, every = set(sets), list(entries)
    return {
        level: [
            key_of(e)
            for e in every
            if e["set"] in in_play and e["level"] == level
            for _ in range(e.get("copies") or 0)
        ]
        for level in LEVELS
    }


def minting_order(seed: int, label: str, keys: Iterable[str]) -> list[str]:
    """The order in which hidden cards get their uids.

    Their keys are sorted, then shuffled by the stream ``mint:<label>``. So a uid never tells its
    card.
    """
    order = sorted(keys)
    stream(seed, "mint", label).shuffle(order)
    return order


def deal(
    seed: int,
    entries: Sequence[Entry],
    *,
    basic_set: str,
    additional_sets: Sequence[str],
    seats: Sequence[int],
    robot: tuple[int, bool] | None,
) -> Deal:
    """The start's deal.

    ``seats`` are the numbers of the seats that get a starter deck, in order. ``robot`` is its
    difficulty and the solo challenge. ``None`` means no Robot.

    The stream ``uids`` shuffles uids 1..N. They are handed out in order. First come the seats'
    starter decks, then the piles A, B, C, then the Robot's deck. The piles and the Robot's deck
    each come in ``minting_order``. Then the stream ``pile:<level>`` shuffles each pile's uids.
    """
    starter = starter_keys(entries, basic_set)
    piles = {
        level: minting_order(seed, f"pile {level}", keys)
        for level, keys in pile_keys(entries, [basic_set, *additional_sets]).items()
    }
    robot_keys = None
    if robot is not None:
        drawn = robot_deck(stream(seed, "robot"), difficulty=robot[0], solo_challenge=robot[1])
        robot_keys = minting_order(seed, "robot", drawn)
    order = [
        *(key for _ in seats for key in starter),
        *(key for level in LEVELS for key in piles[level]),
        *(robot_keys or []),
    ]
    pool = list(range(1, len(order) + 1))
    stream(seed, "uids").shuffle(pool)
    keys = dict(zip(pool, order, strict=True))
    uids = iter(pool)
    decks = {number: [next(uids) for _ in starter] for number in seats}
    dealt = {level: [next(uids) for _ in piles[level]] for level in LEVELS}
    for level in LEVELS:
        stream(seed, "pile", level).shuffle(dealt[level])
    robot_uids = None if robot_keys is None else [next(uids) for _ in robot_keys]
    return Deal(starter=decks, piles=dealt, robot=robot_uids, keys=keys)
