"""Winter Park (rules.md §4): which parks are Winter Parks in a round.

**Decision:** in "normal" mode the Winter Park starts on green in round 1. At the start of each
later Deck Phase (rounds 2-7) it moves on to the next park in use with probability ½. That draw
comes from the tournament's random stream. The Final is always played in a Winter Park when the
option is on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from matches.engine.model import PARK_KINDS as PARK_KINDS  # re-exported: a match's kind

OFF, NORMAL, ALL = "off", "normal", "all"
MODES = (OFF, NORMAL, ALL)


def next_winter_index(rng: random.Random, current: int, park_count: int) -> int:
    """The Winter Park's position after the 50% move at the start of a Deck Phase."""
    if rng.random() < 0.5:
        return (current + 1) % park_count
    return current


def winter_parks(mode: str, parks: Sequence[str], index: int) -> frozenset[str]:
    """The parks that are Winter Parks, given the mode and the normal Winter Park's position."""
    if mode == ALL:
        return frozenset(parks)
    if mode == NORMAL and parks:
        return frozenset({parks[index % len(parks)]})
    return frozenset()


def park_kind(mode: str, parks: Sequence[str], index: int, park: str) -> str:
    """The engine's park kind ("winter" or "normal") for ``park`` this round."""
    return "winter" if park in winter_parks(mode, parks, index) else "normal"
