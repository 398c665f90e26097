"""Derived random streams: each random draw of a tournament comes from its seed and a label.

Each purpose derives a fresh ``random.Random``: a pile's shuffle, a seat's draw in a round, a match.
So draws do not depend on the order in which concurrent seats act. The same seed and the same
actions give the same tournament.
"""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed for the stream ``labels`` names under the tournament ``seed``."""
    text = ":".join(str(part) for part in (seed, *labels))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def stream(seed: int, *labels: object) -> random.Random:
    """The random stream ``labels`` names under the tournament ``seed``."""
    return random.Random(derive_seed(seed, *labels))


def effective_seed(salt: bytes, host_seed: int | None) -> int:
    """The tournament's seed: a server secret ``salt``, with the host's seed mixed in.

    The host's seed is optional. Without the salt, nobody can choose or predict the seed. So a host
    who sends the same seed twice gets different draws.
    """
    text = salt.hex() + ":" + ("" if host_seed is None else str(host_seed))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def commitment(seed: int, nonce: str) -> str:
    """The public commitment to a seed: the hex SHA-256 of ``"<seed>:<nonce>"``.

    It is shown from the start. At the end it is checked against the revealed seed and nonce. So the
    server could not have changed the seed in between. The nonce keeps the 63-bit seed from being
    brute-forced.
    """
    return hashlib.sha256(f"{seed}:{nonce}".encode()).hexdigest()
