"""Derived random streams: every random draw of a tournament comes from its seed and a label.

A fresh ``random.Random`` is derived per purpose: a pile's shuffle, a seat's draw in a round, a
match. This keeps draws independent of the order in which concurrent seats act. So the same seed and
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


def effective_seed(salt: bytes, host_seed: int | None) -> int:
    """The tournament's seed: a server secret ``salt``, with the host's seed (if any) mixed in.

    Nobody who does not know the salt can choose or predict the seed. So a host who sends the same
    seed twice does not get the same draws twice.
    """
    text = salt.hex() + ":" + ("" if host_seed is None else str(host_seed))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def commitment(seed: int, nonce: str) -> str:
    """The public commitment to a seed: SHA-256 of ``"<seed>:<nonce>"`` in hex.

    It is shown from the start, and checked against the seed and nonce revealed at the end. So the
    server could not have changed the seed in between. The nonce keeps the 63-bit seed from being
    brute-forced.
    """
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()
