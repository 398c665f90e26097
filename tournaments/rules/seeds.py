"""Derived random streams: every random draw of a tournament comes from its seed and a label.

Deriving a fresh ``random.Random`` per purpose (a pile's shuffle, a seat's draw in a round, a
match) keeps draws independent of the order in which concurrent seats act, so the same seed and
the same actions give the same tournament.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed for the stream named by ``labels`` under the tournament ``seed``."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def stream(seed: int, *labels: object) -> random.Random:
    """The random stream named by ``labels`` under the tournament ``seed``."""
    return random.Random(derive_seed(seed, *labels))
