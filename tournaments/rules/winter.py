"""Winter Park (rules.md §4): which parks are Winter Parks in a round.

**Decision:** in "normal" mode the Winter Park starts on green in round 1. Each later Deck Phase
(rounds 2-7) may move it on to the next park in use. It moves with probability ½ at the phase's
start. The tournament's random stream draws it. With the option on, the Final is always played in a
Winter Park.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from matches.engine.model import PARK_KINDS as PARK_KINDS  # re-exported: a match's kind

OFF, NORMAL, ALL = "off", "normal", "all"
MODES = (OFF, NORMAL, ALL)


def next_winter_index(rng: random.Random, current: int, park_count: int) -> int:
    """The Winter Park's position after a Deck Phase's opening 50% move."""
    if rng.random() < 0.5:
        return (current + 1) % park_count
    return current


def winter_parks(mode: str, parks: Sequence[str], index: int) -> frozenset[str]:
    """The Winter Parks, given the mode and the normal Winter Park's position."""
    if mode == ALL:
        return frozenset(parks)
    if mode == NORMAL and parks:
        return frozenset({parks[index % len(parks)]})
    return frozenset()


def park_kind(mode: str, parks: Sequence[str], index: int, park: str) -> str:
    """The engine's park kind for ``park`` this round: "winter" or "normal"."""
    return "winter" if park in winter_parks(mode, parks, index) else "normal"
