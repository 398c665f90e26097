"""Each match's engine input (its *setup*), from the tournament's state.

It is built as a round's Match Phase opens. It is pure. The server builds setups with it. A verifier
rebuilds them from the seed and the public log (docs/protocol.md §15).

A setup holds all the engine needs besides the card specs and the seed:

- both decks and the match's share of the piles;
- trophies and fans;
- who holds the flag first;
- the sets in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SIDES = ("A", "B")


@dataclass(frozen=True, slots=True)
class Side:
    """What a setup takes of one seat.

    That is its deck (uids, in order), its fans, and whether it lost its last match. It also takes
    the (round, fans) of each trophy the seat keeps. And it notes whether the seat is the Robot.
    """

    deck: Sequence[int]
    fans: int
    lost_previous: bool
    won: Sequence[tuple[int, int]]
    robot: bool = False


def pile_shares(piles: Mapping[str, Sequence[int]], count: int) -> list[dict[str, list[int]]]:
    """Each of a round's ``count`` matches' share of every pile (top first).

    **Decision:** match j takes every n-th card from position j, dealt like cards. So effects that
    take pile cards can never hand one card to two matches.
    """
    return [
        {level: list(cards[index::count]) for level, cards in piles.items()}
        for index in range(count)
    ]


def flag_holder(
    round_number: int, won_a: Sequence[tuple[int, int]], won_b: Sequence[tuple[int, int]]
) -> str | None:
    """Who holds the flag first.

    It is the holder of the highest-round trophy. Else a toss decides (``None``).

    **Decision:** two seats whose best trophies are of the same round toss for the flag too.
    """
    if round_number == 1:
        return None
    best_a = max((won for won, _ in won_a), default=0)
    best_b = max((won for won, _ in won_b), default=0)
    if best_a == best_b:
        return None
    return "A" if best_a > best_b else "B"


def match_setup(
    *,
    round_number: int,
    final: bool,
    park_kind: str,
    sides: Mapping[str, Side],
    share: Mapping[str, Sequence[int]],
    keys: Mapping[int, str],
    sets_in_play: Sequence[str],
) -> dict[str, object]:
    """One match's setup as stored and published.

    Decks are ``[uid, key]`` pairs, top first.
    """
    a, b = sides["A"], sides["B"]
    return {
        "round": min(round_number, 7),
        "final": final,
        "first": flag_holder(round_number, a.won, b.won),
        "park": park_kind,
        "decks": {side: [[uid, keys[uid]] for uid in sides[side].deck] for side in SIDES},
        "piles": {level: [[uid, keys[uid]] for uid in cards] for level, cards in share.items()},
        "trophies": {side: len(sides[side].won) for side in SIDES},
        "fans": {side: sides[side].fans for side in SIDES},
        "lost_previous": {side: sides[side].lost_previous for side in SIDES},
        "sets_in_play": list(sets_in_play),
        "robot": next((side for side in SIDES if sides[side].robot), None),
    }
