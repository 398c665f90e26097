"""Practice matches: how often a deck beats the decks a bot seat expects.

A bot seat decides with what it may know (``Outlook``):

- its own deck and the card data;
- the public composition of the level piles (which cards exist, never their order);
- each rival's public deck size;
- for a champion, the rival cards it has seen revealed in released matches.

Rival decks are *modelled* from that. A model is a starter deck plus picks for every past round.
Each round's picks are the best cards of a display. The display is drawn from the level's public
composition.

Every practice match runs the engine's fast path, without events. Its seed is drawn from the
decision's own seed. All candidates of one decision play the same seeds (common random numbers). So
their comparison is fair and the decision deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from matches.engine import MatchResult, MatchSetup, play_match
from matches.engine.cards import CardSpec
from tournaments.rules.data import DraftOption, catalogue_data, draft_options
from tournaments.rules.when_picked import CardFacts

DISPLAY = 5
FINAL = 8


@dataclass(frozen=True, slots=True)
class Rival:
    """A modelled rival deck (card keys) and what beating it is worth."""

    deck: tuple[str, ...]
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Outlook:
    """What a bot seat knows when it decides (see the module docstring)."""

    level: str
    round: int
    seed: int
    specs: Mapping[str, CardSpec]
    sets_in_play: tuple[str, ...]
    rivals: tuple[Rival, ...]
    budget: int
    beach_cup: bool = False
    pools: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def rng(self, *labels: object) -> random.Random:
        """A stream of this decision's own, named by ``labels``."""
        return random.Random(":".join(str(part) for part in (self.seed, *labels)))


def power_of(specs: Mapping[str, CardSpec], key: str) -> int:
    spec = specs.get(key)
    return 0 if spec is None else spec.power


def level_pools(cards: Mapping[int, CardFacts]) -> dict[str, tuple[str, ...]]:
    """The public composition of each level pile: every A/B/C card key of the tournament."""
    pools: dict[str, list[str]] = {"A": [], "B": [], "C": []}
    for uid in sorted(cards):
        facts = cards[uid]
        if facts.level in pools:
            pools[facts.level].append(facts.key)
    return {level: tuple(keys) for level, keys in pools.items()}


def starter_keys(cards: Mapping[int, CardFacts]) -> tuple[str, ...]:
    """The starter deck every seat began with.

    Its cards come from the tournament's starter set. That is the level-S set holding every starter
    card. The Robot's cards are level S too. Uids are drawn at random. So the lowest uid may be one
    of the Robot's."""
    names = catalogue_data()["starter_decks"]["contents"]
    keys = {f.key for f in cards.values() if f.level == "S"}
    sets = sorted({f.set for f in cards.values() if f.level == "S"})
    starter_set = next((s for s in sets if all(f"{s}/{name}" in keys for name in names)), "Starter")
    return tuple(f"{starter_set}/{name}" for name in names)


def best_of_display(
    pool: Sequence[str], count: int, specs: Mapping[str, CardSpec], rng: random.Random
) -> list[str]:
    """The ``count`` strongest cards of a display drawn from ``pool``."""
    if not pool:
        return []
    display = rng.sample(list(pool), min(DISPLAY, len(pool)))
    return sorted(display, key=lambda key: -power_of(specs, key))[:count]


def favoured_option(options: Sequence[DraftOption]) -> DraftOption:
    """The option a rival is assumed to take: the most cards of the strongest pile."""
    worth = {"A": 2.5, "B": 4.0, "C": 6.0}
    return max(options, key=lambda o: o.count * worth[o.pile] + o.fans)


def model_deck(
    *,
    starter: Sequence[str],
    deck_size: int,
    rounds_done: int,
    outlook: Outlook,
    rng: random.Random,
    seen: Sequence[str] = (),
) -> tuple[str, ...]:
    """A rival's likely deck: the starter, its seen cards, and modelled picks.

    It is trimmed to its public deck size. The weakest starter cards go first, as rivals thin their
    Newcomers. Then the weakest of the rest go.
    """
    picks = list(seen)
    modelled: list[str] = []
    for number in range(1, min(rounds_done, 7) + 1):
        option = favoured_option(draft_options(beach_cup=outlook.beach_cup, round_number=number))
        pool = outlook.pools.get(option.pile, ())
        modelled += best_of_display(pool, option.count, outlook.specs, rng)
    drafted = picks + modelled[len(picks) :]
    deck = list(starter) + drafted
    while len(deck) > max(deck_size, 1):
        starters = [key for key in deck if key in starter]
        victims = starters or deck
        deck.remove(min(victims, key=lambda key: power_of(outlook.specs, key)))
    return tuple(deck)


def _setup(outlook: Outlook, mine: Sequence[str], theirs: Sequence[str]) -> MatchSetup:
    return MatchSetup(
        decks={
            "A": tuple((n, key) for n, key in enumerate(mine)),
            "B": tuple((1000 + n, key) for n, key in enumerate(theirs)),
        },
        round=min(outlook.round, 7),
        final=outlook.round >= FINAL,
        sets_in_play=outlook.sets_in_play,
        specs=outlook.specs,
    )


def win_rate(outlook: Outlook, mine: Sequence[str], sims: int, label: object = "") -> float:
    """The weighted share of ``sims`` practice matches ``mine`` wins.

    The matches are against the rivals. Their seeds depend on ``label`` and the match's index only.
    They never depend on ``mine``. So all candidates of one decision meet the same shuffles.
    """
    if not mine:
        return 0.0
    rivals = outlook.rivals or (Rival(tuple(mine)),)
    wins = [0.0] * len(rivals)
    plays = [0] * len(rivals)
    for index in range(max(sims, 1)):
        which = index % len(rivals)
        setup = _setup(outlook, mine, rivals[which].deck)
        result = play_match(setup, f"{outlook.seed}:{label}:{index}", record=False)
        assert isinstance(result, MatchResult)
        wins[which] += result.winner == "A"
        plays[which] += 1
    total = sum(r.weight for r, n in zip(rivals, plays, strict=True) if n)
    return sum(r.weight * w / n for r, w, n in zip(rivals, wins, plays, strict=True) if n) / max(
        total, 1e-9
    )
