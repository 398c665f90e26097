"""Who meets whom in which park each round: the round-robin plan.

See rules.md §2.1 Decision. A plan is data: a tuple of rounds, each a tuple of ``Pairing``. So
printed plans can replace the computed one, with no control flow change.

The computed plan uses the circle method. One seat stays; the others rotate. The Robot fills an odd
table's spare place. With fewer than eight places the round robin repeats. So no pair meets twice
before every pair has met once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from tournaments.rules.data import ROUNDS, parks_for

ROBOT = -1  # the place the Robot takes at an odd table


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round.

    ``a`` and ``b`` are seat numbers (``ROBOT`` for the Robot).
    """

    park: str
    a: int
    b: int

    def seats(self) -> tuple[int, int]:
        return (self.a, self.b)


Plan = tuple[tuple[Pairing, ...], ...]


class PairingData(TypedDict):
    """A pairing's JSON form."""

    park: str
    a: int
    b: int


def places(seat_count: int) -> list[int]:
    """The places at the table: the seats, plus the Robot when the count is odd."""
    if not 1 <= seat_count <= 8:
        raise ValueError(f"A tournament has 1 to 8 seats, not {seat_count}")
    seats = list(range(seat_count))
    return [*seats, ROBOT] if seat_count % 2 else seats


def round_robin(entries: Sequence[int]) -> list[list[tuple[int, int]]]:
    """One full round robin (circle method): ``len(entries) - 1`` rounds of pairs."""
    ring = list(entries)
    rounds = []
    for _ in range(len(ring) - 1):
        half = len(ring) // 2
        rounds.append([(ring[i], ring[-1 - i]) for i in range(half)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def compute_plan(seat_count: int, rounds: int = ROUNDS) -> Plan:
    """The plan for ``seat_count`` seats. Pairings repeat the round robin; parks rotate."""
    entries = places(seat_count)
    cycle = round_robin(entries)
    parks = parks_for(len(entries))
    plan = []
    for index in range(rounds):
        pairs = cycle[index % len(cycle)]
        plan.append(
            tuple(
                Pairing(park=parks[(slot + index) % len(parks)], a=a, b=b)
                for slot, (a, b) in enumerate(pairs)
            )
        )
    return tuple(plan)


def plan_to_data(plan: Plan) -> list[list[PairingData]]:
    """The JSON form stored with a tournament."""
    return [[PairingData(park=p.park, a=p.a, b=p.b) for p in row] for row in plan]


def plan_from_data(data: Sequence[Sequence[PairingData]]) -> Plan:
    """Read a stored (or printed) plan back."""
    return tuple(
        tuple(Pairing(str(p["park"]), int(p["a"]), int(p["b"])) for p in row) for row in data
    )
