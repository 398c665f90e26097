"""``python -m tests.engine.native_digests N SEED``: play N seeded random matches with whichever
engine this process imports (compiled or pure: ``CHALLENGERS_PURE_ENGINE``) and print one JSON
object: ``{"engine": "compiled" | "pure", "digests": [one per match]}``.

The setups are drawn like the property tests' (``test_properties.setups``: random decks of 0-18
cards from the whole catalogue, level piles, any round, Final, park, Robot, shuffle, trophies,
fans, lost previous), by ``random.Random(SEED)``, with every fourth match on ``bench``'s mixed
round-7 decks; a match is answered by the default policy or by seeded random ones. A digest
covers everything a match gives: its events, answers, winner, reason, fans and the cards'
places after, and the replay of its events for every tenth.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from matches.engine import (
    MatchResult,
    MatchSetup,
    RandomPolicy,
    load_catalogue,
    native,
    play_match,
    replay,
)
from matches.engine.bench import mixed_setups
from matches.engine.model import Policy


def random_setup(rng: random.Random, keys: list[str], pile_keys: dict[str, list[str]]) -> Any:
    """One setup drawn like ``test_properties.setups``."""
    decks = {
        s: tuple((f"{s}{i}", rng.choice(keys)) for i in range(rng.randint(0, 18))) for s in "AB"
    }
    piles = {
        p: tuple((f"P{p}{i}", rng.choice(pile_keys[p])) for i in range(rng.randint(0, 4)))
        for p in "ABC"
    }
    return MatchSetup(
        decks=decks,
        piles=piles,
        round=rng.randint(1, 7),
        final=rng.random() < 0.5,
        first=rng.choice([None, "A", "B"]),
        park=rng.choice(["normal", "winter"]),
        robot=rng.choice([None, "A", "B"]),
        shuffle=rng.random() < 0.5,
        trophies={"A": rng.randint(0, 6), "B": rng.randint(0, 6)},
        fans={"A": rng.randint(0, 15), "B": rng.randint(0, 15)},
        lost_previous={"A": rng.random() < 0.5, "B": rng.random() < 0.5},
    )


def matches(n: int, seed: int) -> list[tuple[MatchSetup, int, int]]:
    """``n`` (setup, match seed, policy choice) triples."""
    specs = load_catalogue()
    keys = sorted(specs)
    pile_keys = {p: [k for k in keys if specs[k].level == p] for p in "ABC"}
    rng = random.Random(seed)
    mixed = iter(mixed_setups(n // 4 + 1, seed))
    out = []
    for i in range(n):
        setup = next(mixed) if i % 4 == 3 else random_setup(rng, keys, pile_keys)
        out.append((setup, rng.randrange(2**16), rng.randrange(4)))
    return out


def digest(index: int, setup: MatchSetup, seed: int, choice: int) -> str:
    """Everything the match gives, hashed."""
    policies: dict[str, Policy] | None = None
    if choice:
        policies = {"A": RandomPolicy(choice + seed), "B": RandomPolicy(~seed)}
    result = play_match(setup, seed, policies)
    assert isinstance(result, MatchResult)
    facts: list[Any] = [
        result.winner,
        result.reason,
        result.events,
        result.answers,
        result.fans_gained,
        result.reveals,
        result.decks_after,
        result.removed,
        result.piles_after,
    ]
    if not choice:  # the fast path: the same match without its events
        fast = play_match(setup, seed, record=False)
        assert isinstance(fast, MatchResult)
        facts.append((fast.winner, fast.reason, fast.decks_after))
    if index % 10 == 0:
        facts.append(replay(setup, result.events).events == result.events)
    text = json.dumps(facts, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv: list[str]) -> int:
    n, seed = int(argv[0]), int(argv[1])
    digests = [digest(i, *match) for i, match in enumerate(matches(n, seed))]
    print(json.dumps({"engine": native.kind(), "digests": digests}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
