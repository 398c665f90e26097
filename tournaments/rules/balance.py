"""Balance by simulation: how much a card design changes a deck's chance to win.

It plays the same modelled decks with the card and without it (pure: no Django).

Trial ``i`` models a mid-tournament deck and a rival's (``practice.model_deck``). The bots model
rivals the same way. A model is the starter deck plus a steady drafter's picks by round. The trial
puts the card in place of one drafted card of its level (``with``). It puts another card of that
level in the same place (``without``). Both play the same rival with the same seed. The pairs differ
by that one card only. So their win rates differ by the card's effect.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from matches.engine import MatchResult, MatchSetup, play_match
from matches.engine.cards import CardSpec
from tournaments.rules.bots.practice import Outlook, model_deck

ROUNDS = 7


@dataclass(frozen=True, slots=True)
class Balance:
    """Paired matches with and without the card, and each one's wins."""

    matches: int
    wins_with: int
    wins_without: int


def balance_trials(
    *,
    key: str,
    specs: Mapping[str, CardSpec],
    pools: Mapping[str, Sequence[str]],
    starter: Sequence[str],
    sets_in_play: Sequence[str],
    matches: int,
    seed: int,
    progress: Callable[[int, Balance], None] | None = None,
) -> Balance:
    """Play ``matches`` pairs for ``key``. ``progress`` hears every tenth pair.

    ``pools`` holds every A/B/C card of the sets in play, one entry per copy.
    """
    wins_with = wins_without = 0
    for index in range(matches):
        won_with, won_without = _pair(key, specs, pools, starter, sets_in_play, seed, index)
        wins_with += won_with
        wins_without += won_without
        if progress is not None and (index + 1) % 10 == 0:
            progress(index + 1, Balance(index + 1, wins_with, wins_without))
    return Balance(matches, wins_with, wins_without)


def _pair(
    key: str,
    specs: Mapping[str, CardSpec],
    pools: Mapping[str, Sequence[str]],
    starter: Sequence[str],
    sets_in_play: Sequence[str],
    seed: int,
    index: int,
) -> tuple[bool, bool]:
    rng = random.Random(f"balance:{seed}:{key}:{index}")
    round_number = 1 + index % ROUNDS
    outlook = Outlook(
        level="steady",
        round=round_number,
        seed=seed,
        specs=specs,
        sets_in_play=tuple(sets_in_play),
        rivals=(),
        budget=0,
        pools={level: tuple(keys) for level, keys in pools.items()},
    )
    size = len(starter) + round_number
    mine = list(
        model_deck(
            starter=starter, deck_size=size, rounds_done=round_number, outlook=outlook, rng=rng
        )
    )
    rival = model_deck(
        starter=starter, deck_size=size, rounds_done=round_number, outlook=outlook, rng=rng
    )
    level = specs[key].level
    others = [other for other in pools.get(level, ()) if other != key] or [key]
    same_level = [n for n, other in enumerate(mine) if specs[other].level == level]
    slot = rng.choice(same_level) if same_level else rng.randrange(len(mine))
    with_card, without_card = list(mine), list(mine)
    with_card[slot], without_card[slot] = key, rng.choice(others)
    match_seed = f"balance:{seed}:{index}"
    return (
        _wins(with_card, rival, round_number, sets_in_play, specs, match_seed),
        _wins(without_card, rival, round_number, sets_in_play, specs, match_seed),
    )


def _wins(
    mine: Sequence[str],
    theirs: Sequence[str],
    round_number: int,
    sets_in_play: Sequence[str],
    specs: Mapping[str, CardSpec],
    seed: str,
) -> bool:
    setup = MatchSetup(
        decks={
            "A": tuple((n, key) for n, key in enumerate(mine)),
            "B": tuple((1000 + n, key) for n, key in enumerate(theirs)),
        },
        round=round_number,
        sets_in_play=tuple(sets_in_play),
        specs=specs,
    )
    result = play_match(setup, seed, record=False)
    assert isinstance(result, MatchResult)
    return result.winner == "A"
