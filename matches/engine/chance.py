"""Chance, drawn once per match from the seed (decision 7): the deck shuffles and the flag toss.

One SHAKE-128 digest of the seed gives one random key per card and one for the toss. Sorting a
deck's cards by their keys shuffles it. This is a uniform shuffle for any practical deck. It is
cheaper than seeding a Mersenne Twister. Replays never depend on it: the outcomes are recorded.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Callable
from typing import Final

_SHAKE: Final = hashlib.shake_128
# Per number of words: the unpacker, the mask clearing the top two bits (and, up to 256 words,
# the low byte) of each word, and the word indices to put in the low bytes.
Unpack = Callable[[bytes], tuple[int, ...]]
_MASKS: Final[dict[int, tuple[Unpack, int, int]]] = {}


def chance_keys(seed: object, n: int) -> tuple[int, ...]:
    """``n`` random keys derived from ``seed``.

    They are the little-endian 32-bit words of SHAKE-128 of the seed's text, top two bits cleared.
    An int's text is ``"12345"``, a string's ``"str:…"``. Anything else is ``repr``-based. ``None``
    takes 16 bytes from ``os.urandom``. When ``n <= 256``, the low byte of word ``i`` is replaced by
    ``i``. So sorting the keys sorts the indices."""
    if type(seed) is int:
        text = str(seed).encode()
    elif type(seed) is str:
        text = ("str:" + seed).encode()
    elif seed is None:
        text = os.urandom(16)
    else:
        text = f"{type(seed).__name__}:{seed!r}".encode()
    masks = _MASKS.get(n)
    if masks is None:
        masks = _MASKS[n] = _masks(n)
    unpack, mask, ids = masks
    bits = int.from_bytes(_SHAKE(text).digest(4 * n), "little")
    return unpack((bits & mask | ids).to_bytes(4 * n, "little"))


def _masks(n: int) -> tuple[Unpack, int, int]:
    """``chance_keys``' unpacker, mask and indices for ``n`` words."""
    word = (1 << 30) - 1
    ids = 0
    if n <= 256:
        word -= 255
        ids = sum(i << (32 * i) for i in range(n))
    mask = sum(word << (32 * i) for i in range(n))
    return struct.Struct(f"<{n}I").unpack, mask, ids


def shuffle(deck: list[int], keys: tuple[int, ...], ids: bool) -> None:
    """Sort ``deck`` (card ids, in place) by ``keys``, one per card.

    With ``ids``, a key's low byte is its card id. Above it sit 22 random bits. A tie keeps the card
    id order. About one 18-card shuffle in 30,000 has a tie. Without ``ids``, keys are 30 random
    bits. Ties then keep the given order."""
    if ids:
        deck[:] = [key & 255 for key in sorted(keys)]  # a sorted key's low byte: its card id
    else:
        deck[:] = map(deck.__getitem__, sorted(range(len(deck)), key=keys.__getitem__))
