"""The three bot levels play only legal Deck Phases, the same way for the same seed."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.engine import load_catalogue
from matches.engine.cards import CardSpec
from tournaments.rules.bots import LEVELS, next_action
from tournaments.rules.bots.practice import Outlook, Rival, level_pools, starter_keys
from tournaments.rules.bots.stakes import rival_weights
from tournaments.rules.data import draft_options
from tournaments.rules.draft import ACTIONS, DraftTurn, Table, final_turn
from tournaments.rules.piles import Pile
from tournaments.rules.when_picked import CardFacts

SETS = ("City", "Castle", "Film Studio", "Funfair", "Haunted House", "Outer Space")


@cache
def specs() -> dict[str, CardSpec]:
    return load_catalogue()


def facts_of(key: str) -> CardFacts:
    spec = specs()[key]
    return CardFacts(key, spec.level, spec.power, spec.set, spec.effect_code, spec.effect_params)


def tournament_table(rng: random.Random, deck_size: int) -> Table:
    """A seat's deck (starter plus random picks) and shuffled piles of the sets in play."""
    facts: dict[int, CardFacts] = {}
    piles = {level: Pile(level) for level in "ABC"}
    keys = [k for k, s in specs().items() if s.set in SETS and s.level in "ABC"]
    for uid, key in enumerate(sorted(keys) * 2, start=100):
        facts[uid] = facts_of(key)
        piles[facts[uid].level].cards.append(uid)
    for pile in piles.values():
        rng.shuffle(pile.cards)
    starter = ["Newcomer", "Newcomer", "Newcomer", "Talent", "Dog", "Champion"]
    for uid, name in enumerate(starter):
        facts[uid] = facts_of(f"Starter/{name}")
    deck = list(range(len(starter)))
    for _ in range(max(deck_size - len(starter), 0)):
        deck.append(piles["A"].cards.pop())
    return Table(deck=deck, piles=piles, cards=facts, rng=rng)


def outlook(level: str, table: Table, round_number: int, seed: int) -> Outlook:
    rival = Rival((*starter_keys(table.cards), "City/Reporter"))
    return Outlook(
        level=level,
        round=round_number,
        seed=seed,
        specs=specs(),
        sets_in_play=SETS,
        rivals=(rival,),
        budget=12,
        pools=level_pools(table.cards),
    )


def play_phase(level: str, round_number: int, seed: int) -> list[tuple[str, object]]:
    """One whole Deck Phase at ``level``; every action goes through the rules (illegal: raises)."""
    rng = random.Random(seed)
    table = tournament_table(rng, 6 + 2 * (round_number - 1))
    turn = (
        final_turn()
        if round_number == 8
        else DraftTurn(draft_options(beach_cup=False, round_number=round_number))
    )
    seen = outlook(level, table, round_number, seed)
    done: list[tuple[str, object]] = []
    for step in range(60):
        noise = random.Random(f"{seed}:{step}")
        action = next_action(turn, table, outlook=seen, noise=noise)
        if action is None:
            assert turn.finished
            return done
        name, arguments = action
        table.rng = random.Random(f"{seed}:draw:{step}")
        ACTIONS[name](turn, table, **arguments)
        done.append((name, sorted(arguments.items())))
    raise AssertionError(f"{level} did not finish its Deck Phase: {done}")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    level=st.sampled_from(LEVELS),
    round_number=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_level_plays_a_legal_deck_phase_to_its_end(
    level: str, round_number: int, seed: int
) -> None:
    done = play_phase(level, round_number, seed)
    assert done[-1][0] == "finish"


def test_the_same_seed_gives_the_same_decisions_at_every_level() -> None:
    for level in LEVELS:
        assert play_phase(level, 4, 11) == play_phase(level, 4, 11)


def test_the_next_rival_weighs_most_and_the_future_shares_the_rest() -> None:
    weights = rival_weights(round_number=2, next_rival=1, others=[1, 2, 3])
    assert weights[1] == 2.5
    assert weights[2] == weights[3] > 0
    assert rival_weights(round_number=7, next_rival=1, others=[1, 2]) == {1: 9.5}


def test_the_starter_deck_is_found_when_a_robot_card_has_the_lowest_uid() -> None:
    """Uids are drawn at random, and the Robot's cards are level S too: a bot modelling a rival
    must still start it from the starter set, never from the Robot's set."""
    robot = {1: CardFacts(key="Robot/Alpha", level="S", power=1, set="Robot")}
    starter = {
        uid: CardFacts(key=f"Starter/{name}", level="S", power=1, set="Starter")
        for uid, name in enumerate(["Newcomer", "Talent", "Dog", "Champion"], start=2)
    }
    keys = starter_keys({**robot, **starter})
    assert keys[0] == "Starter/Newcomer"
    assert all(key.startswith("Starter/") for key in keys)
