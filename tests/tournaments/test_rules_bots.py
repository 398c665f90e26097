"""The bot's Deck Phase policy always finishes a legal phase."""

from __future__ import annotations

import random

import pytest

from tournaments.rules.bots import bot_next_action, choose_option
from tournaments.rules.data import draft_options
from tournaments.rules.draft import ACTIONS, DraftTurn, Table
from tournaments.rules.piles import Pile
from tournaments.rules.when_picked import CardFacts


def run_bot(turn: DraftTurn, table: Table, round_number: int) -> list[str]:
    done: list[str] = []
    for _ in range(50):
        action = bot_next_action(turn, table, round_number=round_number)
        if action is None:
            return done
        name, kwargs = action
        ACTIONS[name](turn, table, **kwargs)
        done.append(name)
    raise AssertionError("the bot did not finish")


def table_with(rng: random.Random, size: int) -> Table:
    facts: dict[int, CardFacts] = {
        n: CardFacts("Starter/Newcomer", "S", 1, "Starter") for n in range(size)
    }
    piles = {level: Pile(level) for level in "ABC"}
    for level, cap in (("A", 3), ("B", 5), ("C", 10)):
        for n in range(30):
            uid = 1000 * (ord(level) - 64) + n
            code = "picked_gain_fans" if n % 7 == 0 else None
            facts[uid] = CardFacts(f"X/{uid}", level, rng.randint(1, cap), "X", code, {"n": 1})
            piles[level].cards.append(uid)
    return Table(deck=list(range(size)), piles=piles, cards=facts, rng=rng)


@pytest.mark.parametrize("beach_cup", [False, True])
@pytest.mark.parametrize("round_number", range(1, 8))
def test_the_bot_finishes_every_round_with_the_right_number_of_picks(
    beach_cup: bool, round_number: int
) -> None:
    rng = random.Random(round_number)
    table = table_with(rng, 14)
    turn = DraftTurn(draft_options(beach_cup=beach_cup, round_number=round_number))
    run_bot(turn, table, round_number)
    assert turn.finished
    assert len(turn.picked) == turn.options[turn.option or 0].count


def test_the_bot_prefers_two_b_cards_to_two_a_cards() -> None:
    turn = DraftTurn(draft_options(beach_cup=False, round_number=4))
    assert turn.options[choose_option(turn)].pile == "B"


def test_the_bot_thins_newcomers_late_but_keeps_a_playable_deck() -> None:
    table = table_with(random.Random(4), 13)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=5))
    run_bot(turn, table, 5)
    assert len(table.deck) == 10
