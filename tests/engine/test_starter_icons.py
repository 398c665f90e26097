"""Starter cards are City cards (rules.md §1, Starter decks): the base and the Beach Cup starter
cards carry the City icon, so the effects that name City cards or count set icons count them. The
Robot's cards carry the Robot icon."""

from __future__ import annotations

from tests.engine.cards import CAT, CHAMPION, DRAGON, NEWCOMER, PIG, TALENT
from tests.engine.scene import Scene

BEACH_NEWCOMER = "Beach Cup Starter/Newcomer"


def test_hermit_gets_no_bonus_with_a_newcomer_on_the_bench() -> None:
    s = Scene(a=["Castle/Hermit", DRAGON], bench_a=[PIG, NEWCOMER], flag=("B", [DRAGON]))
    assert s.attack().power("Castle/Hermit") == 2


def test_hermit_gets_no_bonus_with_a_beach_cup_newcomer_on_the_bench() -> None:
    s = Scene(a=["Castle/Hermit", DRAGON], bench_a=[BEACH_NEWCOMER], flag=("B", [DRAGON]))
    assert s.attack().power("Castle/Hermit") == 2


def test_blacksmith_on_the_bench_gives_a_revealed_starter_talent_one_power() -> None:
    s = Scene(a=[TALENT, DRAGON], bench_a=["Castle/Blacksmith"], flag=("B", [DRAGON]))
    assert s.attack().power(TALENT) == 3


def test_blacksmith_on_the_bench_makes_a_champion_holding_the_flag_defend_at_five() -> None:
    s = Scene(b=[PIG, DRAGON], bench_a=["Castle/Blacksmith"], flag=("A", [CHAMPION])).attack()
    assert s.totals()[0] == (3, 5)


def test_mascot_counts_the_city_icon_of_a_newcomer_on_the_bench() -> None:
    s = Scene(a=["City/Mascot", DRAGON], bench_a=[PIG, CAT, NEWCOMER], flag=("B", [DRAGON]))
    assert s.attack().power("City/Mascot") == 2 + 3  # Castle, Film Studio, City


def test_mascot_counts_a_newcomer_and_a_city_card_as_one_icon() -> None:
    s = Scene(
        a=["City/Mascot", DRAGON], bench_a=[NEWCOMER, "City/Talent", PIG], flag=("B", [DRAGON])
    )
    assert s.attack().power("City/Mascot") == 2 + 2  # City, Castle


def test_mascot_counts_the_robot_icon_of_a_robot_card_on_the_bench() -> None:
    s = Scene(a=["City/Mascot", DRAGON], bench_a=[PIG, "Robot/Alpha"], flag=("B", [DRAGON]))
    assert s.attack().power("City/Mascot") == 2 + 2  # Castle, Robot


def test_autocorrect_counts_the_city_icon_of_the_opponents_starter_cards() -> None:
    s = Scene(
        a=["Robot/Autocorrect", DRAGON],
        bench_b=[NEWCOMER, TALENT, PIG],
        flag=("B", [DRAGON, "Castle/Horse", DRAGON]),
    ).attack()
    assert s.power("Robot/Autocorrect") == 7 - 2  # City, Castle


def test_a_frozen_newcomer_carries_no_icon_in_winter_park() -> None:
    s = Scene(
        a=["Castle/Hermit", DRAGON],
        b=[DRAGON],
        flag=("A", [NEWCOMER]),
        park="winter",
        round=3,
        answers=[[0]],
    )
    s.attack()  # B takes the flag; the Newcomer is frozen
    assert s.frozen("A") == [[NEWCOMER], []]
    assert s.attack().power("Castle/Hermit") == 4


def test_starter_decks_put_the_city_set_in_play_for_a_rainbow_card() -> None:
    # No sets_in_play given: the sets of the cards dealt, a Newcomer bringing the City set.
    s = Scene(a=["Castle/Hermit", DRAGON], bench_a=["Rainbow/Impostor"], flag=("B", [DRAGON]))
    assert s.attack().power("Castle/Hermit") == 4
    s = Scene(
        a=["Castle/Hermit", DRAGON, NEWCOMER],
        bench_a=["Rainbow/Impostor"],
        flag=("B", [DRAGON]),
    )
    assert s.attack().power("Castle/Hermit") == 2
