"""One seat's Deck Phase (rules.md §2.2): options, display, redraw timing, When picked, removal."""

from __future__ import annotations

import random

import pytest

from tournaments.rules.data import draft_options
from tournaments.rules.draft import (
    DraftTurn,
    Table,
    deck_finish,
    deck_remove,
    draft_choose,
    draft_draw,
    draft_pick,
    draft_redraw,
    draft_resolve,
)
from tournaments.rules.errors import RuleError
from tournaments.rules.piles import Pile
from tournaments.rules.when_picked import CardFacts

PLAIN_A = CardFacts("Castle/Pig", "A", 3, "Castle")
PLAIN_B = CardFacts("Castle/Horse", "B", 5, "Castle")
NEWCOMER = CardFacts("Starter/Newcomer", "S", 1, "Starter")
CHEERLEADER = CardFacts(
    "University/Cheerleader", "A", 2, "University", "picked_gain_fans", {"n": 2}
)
SHAPESHIFTER = CardFacts(
    "Outer Space/Shapeshifter", "A", 2, "Outer Space", "picked_remove_for_extra_pick", {"count": 1}
)
GRANDMOTHER = CardFacts(
    "Fairytale Forest/Grandmother",
    "A",
    4,
    "Fairytale Forest",
    "picked_must_remove",
    {"count": 1, "filter": {"min_power": 3}, "permanent": True},
)
SURF_TEACHER = CardFacts(
    "Beach Club/Surf Teacher", "B", 4, "Beach Club", "picked_draw_keep", {"pile": "A", "draw": 3}
)


def make_table(a_cards: list[CardFacts], b_cards: list[CardFacts] | None = None) -> Table:
    """A table whose deck is six Newcomers (uids 1-6) and whose piles hold the given cards."""
    facts: dict[int, CardFacts] = {uid: NEWCOMER for uid in range(1, 7)}
    piles = {level: Pile(level) for level in "ABC"}
    for offset, (level, cards) in enumerate((("A", a_cards), ("B", b_cards or []))):
        for index, card in enumerate(cards):
            uid = 100 * (offset + 1) + index
            facts[uid] = card
            piles[level].cards.append(uid)
    return Table(deck=list(range(1, 7)), piles=piles, cards=facts, rng=random.Random(1))


def with_card(table: Table, uid: int, facts: CardFacts) -> None:
    """Give the deck card ``uid`` other facts (e.g. make a Newcomer a Champion)."""
    table.cards = {**table.cards, uid: facts}


def every_uid(turn: DraftTurn, table: Table) -> list[int]:
    """Every physical card of the table, wherever it is."""
    where = [table.deck, turn.display, table.left_game]
    where += [p.cards for p in table.piles.values()] + [p.discard for p in table.piles.values()]
    where += [o.offered for o in turn.obligations]
    return sorted(uid for place in where for uid in place)


def test_a_round_with_one_option_needs_no_choice_and_keeps_two_of_five() -> None:
    table = make_table([PLAIN_A] * 8)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    before = every_uid(turn, table)
    display = draft_draw(turn, table)
    assert len(display) == 5
    draft_pick(turn, table, card=display[0])
    draft_pick(turn, table, card=display[1])
    assert turn.display == [] and len(table.piles["A"].discard) == 3
    assert table.deck[-2:] == display[:2]
    deck_finish(turn, table)
    assert turn.finished and every_uid(turn, table) == before


def test_choosing_the_beach_cup_fan_option_gives_two_fans() -> None:
    table = make_table([PLAIN_A] * 6, [PLAIN_B] * 6)
    turn = DraftTurn(draft_options(beach_cup=True, round_number=2))
    with pytest.raises(RuleError) as error:
        draft_draw(turn, table)
    assert error.value.code == "choose_first"
    draft_choose(turn, table, option=0)
    assert (table.fans, turn.picks_left) == (2, 2)
    with pytest.raises(RuleError):
        draft_choose(turn, table, option=1)


def test_the_redraw_after_the_first_pick_draws_four_again() -> None:
    table = make_table([PLAIN_A] * 12)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=2))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    fresh = draft_redraw(turn, table)
    assert len(fresh) == 4 and not set(fresh) & set(display)
    assert sorted(table.piles["A"].discard) == sorted(display[1:])
    with pytest.raises(RuleError) as error:
        draft_redraw(turn, table)
    assert error.value.code == "redraw_used"


def test_picking_a_card_not_in_the_display_is_refused_and_changes_nothing() -> None:
    table = make_table([PLAIN_A] * 8)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    draft_draw(turn, table)
    deck = list(table.deck)
    with pytest.raises(RuleError) as error:
        draft_pick(turn, table, card=999)
    assert error.value.code == "not_in_display"
    assert table.deck == deck and len(turn.display) == 5


def test_an_empty_pile_shuffles_its_discard_to_form_it_again() -> None:
    pile = Pile("A", cards=[1, 2], discard=[3, 4, 5])
    drawn = pile.draw(4, random.Random(2))
    assert drawn[:2] == [1, 2] and len(drawn) == 4 and set(drawn[2:]) <= {3, 4, 5}
    assert sorted(drawn + pile.cards) == [1, 2, 3, 4, 5] and pile.discard == []


def test_removed_starter_cards_leave_the_game_and_pile_cards_go_to_their_discard() -> None:
    table = make_table([PLAIN_A] * 8)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    with pytest.raises(RuleError) as error:
        deck_remove(turn, table, cards=[1])
    assert error.value.code == "picks_first"
    draft_pick(turn, table, card=display[1])
    deck_remove(turn, table, cards=[1, display[0]])
    assert table.left_game == [1]
    assert display[0] in table.piles["A"].discard
    assert 1 not in table.deck and display[0] not in table.deck


def test_removing_a_card_that_is_not_in_the_deck_is_refused() -> None:
    table = make_table([PLAIN_A] * 8)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    draft_pick(turn, table, card=display[1])
    with pytest.raises(RuleError) as error:
        deck_remove(turn, table, cards=[1, 4242])
    assert error.value.code == "not_in_deck" and 1 in table.deck


def test_cheerleader_gives_two_fans_when_picked() -> None:
    table = make_table([CHEERLEADER] * 5)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    assert table.fans == 2


def test_shapeshifter_trades_a_removed_card_for_an_extra_pick() -> None:
    table = make_table([SHAPESHIFTER] + [PLAIN_A] * 7)
    table.piles["A"].cards.sort()
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=100)
    with pytest.raises(RuleError) as error:
        draft_pick(turn, table, card=display[1])
    assert error.value.code == "obligation_pending"
    with pytest.raises(RuleError) as error:
        draft_resolve(turn, table, cards=[100])
    assert error.value.code == "not_eligible"
    draft_resolve(turn, table, cards=[1])
    assert turn.picks_left == 2 and 1 in table.left_game
    draft_pick(turn, table, card=display[1])
    draft_pick(turn, table, card=display[2])
    assert len(turn.picked) == 3 and turn.display == []


def test_shapeshifter_may_be_declined() -> None:
    table = make_table([SHAPESHIFTER] + [PLAIN_A] * 7)
    table.piles["A"].cards.sort()
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    draft_draw(turn, table)
    draft_pick(turn, table, card=100)
    draft_resolve(turn, table, cards=[])
    assert turn.picks_left == 1 and len(table.deck) == 7


def test_grandmother_must_take_a_card_of_power_three_or_more_with_her() -> None:
    table = make_table([GRANDMOTHER] + [PLAIN_A] * 7)
    table.piles["A"].cards.sort()
    with_card(table, 6, CardFacts("Starter/Champion", "S", 4, "Starter"))
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=100)
    with pytest.raises(RuleError) as error:
        draft_resolve(turn, table, cards=[])
    assert error.value.code == "required"
    with pytest.raises(RuleError):
        draft_resolve(turn, table, cards=[1])
    draft_resolve(turn, table, cards=[6])
    draft_pick(turn, table, card=display[1])
    deck_finish(turn, table)
    assert 6 not in table.deck and 6 in table.left_game


def test_surf_teacher_keeps_one_of_three_level_a_cards_as_an_extra_pick() -> None:
    table = make_table([PLAIN_A] * 6, [SURF_TEACHER] * 5)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=3))
    draft_choose(turn, table, option=1)
    display = draft_draw(turn, table)
    before = every_uid(turn, table)
    draft_pick(turn, table, card=display[0])
    offered = list(turn.obligations[0].offered)
    assert len(offered) == 3 and all(table.cards[uid].level == "A" for uid in offered)
    with pytest.raises(RuleError) as error:
        deck_finish(turn, table)
    assert error.value.code == "obligation_pending"
    draft_resolve(turn, table, cards=[offered[1]])
    assert offered[1] in table.deck
    assert sorted(table.piles["A"].discard) == sorted([offered[0], offered[2]])
    deck_finish(turn, table)
    assert every_uid(turn, table) == before


def test_nothing_can_be_done_after_finishing() -> None:
    table = make_table([PLAIN_A] * 8)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=1))
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    draft_pick(turn, table, card=display[1])
    deck_finish(turn, table)
    with pytest.raises(RuleError) as error:
        deck_remove(turn, table, cards=[2])
    assert error.value.code == "already_finished"


def test_a_turn_survives_its_json_form_mid_obligation() -> None:
    from tournaments.rules.draft import turn_from_data, turn_to_data

    table = make_table([PLAIN_A] * 6, [SURF_TEACHER] * 5)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=3))
    draft_choose(turn, table, option=1)
    display = draft_draw(turn, table)
    draft_pick(turn, table, card=display[0])
    assert turn_from_data(turn_to_data(turn)) == turn


def test_a_finalist_may_only_remove_cards_and_finish() -> None:
    from tournaments.rules.draft import final_turn

    table = make_table([PLAIN_A] * 6)
    turn = final_turn()
    with pytest.raises(RuleError):
        draft_pick(turn, table, card=1)
    deck_remove(turn, table, cards=[1, 2])
    deck_finish(turn, table)
    assert table.deck == [3, 4, 5, 6] and turn.finished


def test_matryoshka_removes_for_good_and_a_rainbow_card_counts_for_sci_fi_geek() -> None:
    from tournaments.rules.when_picked import matches

    assert matches(CardFacts("Rainbow/DJ", "A", 2, "Rainbow"), {"set": "Outer Space"})
    assert not matches(PLAIN_A, {"set": "Outer Space"})
    assert matches(PLAIN_A, {"name": "Pig", "level": "A", "max_power": 3})
    matryoshka = CardFacts(
        "Toy Store/Matryoshka",
        "C",
        4,
        "Toy Store",
        "picked_remove_for_extra_pick",
        {"count": 1, "filter": {}, "permanent": True},
    )
    table = make_table([PLAIN_A] * 8)
    table.cards = {**table.cards, 300: matryoshka, 301: PLAIN_A}
    table.piles["C"].cards = [300, 301, 302]
    table.cards = {**table.cards, 302: PLAIN_A}
    turn = DraftTurn(draft_options(beach_cup=False, round_number=6))
    draft_choose(turn, table, option=1)
    draft_draw(turn, table)
    draft_pick(turn, table, card=300)
    pig = table.deck[0]
    table.deck.append(777)
    table.cards = {**table.cards, 777: PLAIN_A}
    draft_resolve(turn, table, cards=[777])
    assert 777 in table.left_game and 777 not in table.piles["A"].discard
    assert turn.picks_left == 1 and pig in table.deck
