"""``python -m tests.frontend.board_truth N OUT``: play ``N`` matches of each box and write, per
match, its events (as stored) and the engine's own board after each event, one JSON line each.

Run with the pure engine (``CHALLENGERS_PURE_ENGINE=1``): the board is read from the match after
every event through its event list's ``append``, which the compiled attack loop bypasses. The
matches: random round 1-7 decks of 8-18 cards of one box (the base game, or the Beach Cup with
its starters), the rest of the box's level cards as the level piles, either park, sometimes the
Robot, answered by the default policy or by seeded random ones.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from matches.engine import MatchSetup, RandomPolicy, load_catalogue, native
from matches.engine.cards import CardSpec
from matches.engine.events import observe
from matches.engine.match import Match
from matches.engine.model import Policy

BOXES = {"base": "base", "beach": "beach_cup"}


def box_keys(box: str, specs: dict[str, CardSpec]) -> dict[str, list[str]]:
    """The design keys of ``box`` by level (starters as level ``S``)."""
    levels: dict[str, list[str]] = {"S": [], "A": [], "B": [], "C": []}
    for key, spec in sorted(specs.items()):
        if spec.box == box and spec.level in levels:
            levels[spec.level].append(key)
    return levels


def setup_of(rng: random.Random, keys: dict[str, list[str]]) -> MatchSetup:
    """One match of random decks from ``keys``."""
    decks = {}
    for side in "AB":
        cards = [rng.choice(keys[rng.choice("SSAABBC")]) for _ in range(rng.randint(8, 18))]
        decks[side] = tuple((f"{side}{i}", key) for i, key in enumerate(cards))
    piles = {p: tuple((f"P{p}{i}", rng.choice(keys[p])) for i in range(4)) for p in "ABC"}
    return MatchSetup(
        decks=decks,
        piles=piles,
        round=rng.randint(1, 7),
        final=rng.random() < 0.2,
        park=rng.choice(["normal", "winter"]),
        robot=rng.choice([None, None, None, "B"]),
        trophies={"A": rng.randint(0, 4), "B": rng.randint(0, 4)},
        fans={"A": rng.randint(0, 8), "B": rng.randint(0, 8)},
    )


class Watched(list[Any]):
    """A match's event list that reads the board from the match after each event."""

    def __init__(self) -> None:
        super().__init__()
        self.match: Match | None = None
        self.boards: list[dict[str, Any]] = []

    def append(self, event: Any) -> None:
        super().append(event)
        assert self.match is not None
        self.boards.append(board(self.match))


def board(m: Match) -> dict[str, Any]:
    """What the board should draw now, read from the match itself (its powers counted here)."""
    uid, stack, attack = m.uid, m.stack, m.attack
    defence = m.power(m.holder, stack[-1], False) if stack else None
    total = sum(m.power(m.attacker, c, True) for c in attack) if stack and attack else None
    out: dict[str, Any] = {"defence": defence, "total": total}
    for side, name in enumerate("AB"):
        held: list[int | None] = [None] * len(m.bench[side])
        for i, seat in enumerate(m.bench[side]):
            if seat is not None and seat[2] >= 0:
                held[seat[2]] = i
        holds = m.holder == side
        out[name] = {
            "flag": uid[stack[-1]] if holds and stack else None,
            "under": [uid[c] for c in reversed(stack[:-1])] if holds else [],
            "attack": [uid[c] for c in attack] if m.attacker == side else [],
            "bench": [[uid[c] for c in seat[1]] if seat else [] for seat in m.bench[side]],
            "held": held,
            "frozen": [[uid[c] for c in seat] for seat in m.frozen[side]],
            "exhaust": [uid[c] for c in m.exhaust[side]],
            "deck": len(m.deck[side]),
            "fans": m.fans[side],
        }
    return out


def play(setup: MatchSetup, seed: int, policies: dict[str, Policy] | None) -> dict[str, Any]:
    """One match: its events and the board after each."""
    match = Match(setup, seed, policies, True, ())
    watched = Watched()
    watched.match = match
    match.events = watched
    assert match.log is not None
    match.log.events = watched
    match.run()
    events = list(watched)
    spectator = [observe(event, None) for event in events]
    return {"events": events, "spectator": spectator, "boards": watched.boards}


def main(n: int, out: str) -> None:
    assert native.kind() == "pure", "run with CHALLENGERS_PURE_ENGINE=1"
    specs = load_catalogue()
    with open(out, "w", encoding="utf-8") as fh:
        for box, name in BOXES.items():
            keys, rng = box_keys(name, specs), random.Random(box)
            for i in range(n):
                setup, seed = setup_of(rng, keys), rng.randrange(2**16)
                policies: dict[str, Policy] | None = None
                if i % 3:
                    policies = {"A": RandomPolicy(i), "B": RandomPolicy(~i)}
                fh.write(json.dumps({"box": box, **play(setup, seed, policies)}) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
