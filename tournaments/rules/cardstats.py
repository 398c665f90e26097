"""Card statistics from play (pure: no Django; ``tournaments.models`` holds the rows).

It says what one match or one Deck Phase adds to each card's figures. It also gives a rate's 95 %
Wilson interval.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval


@dataclass(slots=True)
class Counts:
    """One card design's counters, for one set combination and one kind of player."""

    offered: int = 0  # copies shown in the player's Deck Phase displays
    picked: int = 0  # copies the player kept
    decks: int = 0  # match sides whose deck held the design (once per side, whatever the copies)
    deck_wins: int = 0  # of those, the sides that won
    reveals: int = 0  # copies turned face up
    power_total: int = 0  # the power of each of its attacks, summed…
    power_count: int = 0  # …over this many attacks
    effects: int = 0  # its effect resolved
    # What the design adds to its set's ``decks`` and ``deck_wins``: a side whose deck holds
    # several of a set's designs counts once for the set, on the first of them (by key).
    set_decks: int = 0
    set_deck_wins: int = 0

    def add(self, other: Counts) -> None:
        for name in _ADDED:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def values(self) -> tuple[int, ...]:
        """The stored counters, in ``COUNTERS`` order."""
        return _values(self)


SET_ONLY = ("set_decks", "set_deck_wins")  # written to the set's rows in place of decks, wins
COUNTERS = tuple(f.name for f in fields(Counts) if f.name not in SET_ONLY)  # the stored ones
_ADDED = (*COUNTERS, *SET_ONLY)
_values = attrgetter(*COUNTERS)  # the counters in order, read at C speed (per row written)
_row_values = attrgetter(*_ADDED)
Tally = dict[tuple[str, str], Counts]  # (card key, player) -> counts
ALL = ""  # a stored row's ``sets`` or ``player`` when it sums every combination or kind of player
Row = tuple[Any, ...]  # key, set name, sets, player, the COUNTERS, then the SET_ONLY counters


def tally_rows(tally: Tally, sets: str) -> list[Row]:
    """A tally as rows to add, in set combination ``sets``.

    There is one row per design and kind of player. The writer adds each to its stored rows. Those
    are pre-summed the two ways reads need them. One is for the design, one for its set (keyed by
    the set's name). Each has a row per combination, over every kind of player. It also has a row
    per kind of player, over every combination.
    """
    return [
        (key, key.split("/", 1)[0], sets, player, *_row_values(counts))
        for (key, player), counts in tally.items()
    ]


def rekeyed(tally: Tally, renamed: Mapping[str, str]) -> Tally:
    """``tally`` under its designs' current keys, so figures follow a design, not a name.

    ``renamed`` maps a key frozen at a tournament's start to its design's key now. The design may
    have been renamed or moved since.
    """
    if not renamed:
        return tally
    moved: Tally = {}
    for (key, player), counts in tally.items():
        _counts(moved, renamed.get(key, key), player).add(counts)
    return moved


def sets_label(sets: Iterable[str]) -> str:
    """A set combination as one label: the sorted names, joined with "+"."""
    return "+".join(sorted(set(sets)))


def match_counts(
    *,
    decks: Mapping[str, Sequence[Sequence[object]]],
    events: Iterable[Mapping[str, object]],
    winner: str,
    players: Mapping[str, str],
) -> Tally:
    """What one played match adds.

    ``decks`` is the setup's ``{side: [[uid, key], …]}``. ``events`` are the engine's. ``players``
    gives each side's kind: human, a bot level, robot.
    """
    tally: Tally = {}
    keys: dict[tuple[str, int], str] = {}
    for side, cards in decks.items():
        refs = _refs(cards)
        for uid, key in refs:
            keys[side, uid] = key
        held = sorted({key for _, key in refs})
        for key in held:
            counts = _counts(tally, key, players[side])
            counts.decks += 1
            counts.deck_wins += side == winner
        _count_set_decks(tally, held, players[side], won=side == winner)
    for event in events:
        _count_event(tally, keys, players, event)
    return tally


def _refs(cards: Sequence[Sequence[object]]) -> list[tuple[int, str]]:
    """A setup's deck ``[[uid, key], …]`` as pairs.

    Uids are ints; keys are "Set/Name".
    """
    refs = []
    for uid, key in cards:
        assert isinstance(uid, int) and isinstance(key, str)
        refs.append((uid, key))
    return refs


def _count_set_decks(tally: Tally, held: Sequence[str], player: str, *, won: bool) -> None:
    """One deck counts once for each set it uses.

    It counts on its first design of that set (``held`` sorted). A set's sample is its distinct
    decks. It is not the sum of its designs' samples.
    """
    seen: set[str] = set()
    for key in held:
        set_name = key.split("/", 1)[0]
        if set_name not in seen:
            seen.add(set_name)
            counts = _counts(tally, key, player)
            counts.set_decks += 1
            counts.set_deck_wins += won


def _count_event(
    tally: Tally,
    keys: dict[tuple[str, int], str],
    players: Mapping[str, str],
    event: Mapping[str, object],
) -> None:
    kind = event["kind"]
    if kind not in ("reveal", "attack", "effect"):
        return
    side, card = event["side"], event["card"]
    assert isinstance(side, str) and isinstance(card, int)
    if kind == "reveal":  # the reveal names its card (one an effect added mid-match too)
        named = event["key"]
        assert isinstance(named, str)
        keys[side, card] = named
    key = keys.get((side, card))
    if key is None:
        return
    counts = _counts(tally, key, players[side])
    if kind == "reveal":
        counts.reveals += 1
    elif kind == "attack":
        power = event["power"]
        assert isinstance(power, int)
        counts.power_total += power
        counts.power_count += 1
    else:
        counts.effects += 1


def draft_counts(*, offered: Iterable[str], picked: Iterable[str], player: str) -> Tally:
    """What one finished Deck Phase adds: the keys of the cards shown and of those kept."""
    tally: Tally = {}
    for key in offered:
        _counts(tally, key, player).offered += 1
    for key in picked:
        _counts(tally, key, player).picked += 1
    return tally


def _counts(tally: Tally, key: str, player: str) -> Counts:
    found = tally.get((key, player))
    if found is None:
        found = tally[key, player] = Counts()
    return found


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes / trials`` (None without a trial)."""
    if trials <= 0:
        return None
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
