"""One situation per Robot card. "The Robot's opponent" = the owner's opponent."""

from __future__ import annotations

from tests.engine.cards import CAT, COW, DRAGON, HORSE, LION, NEWCOMER, PIG, TALENT
from tests.engine.scene import Scene, covers


@covers("Robot/Cyborg")
def test_cyborg_power_equals_the_round_and_seven_in_the_final() -> None:
    s = Scene(a=["Robot/Cyborg", DRAGON], flag=("B", [DRAGON]), round=5).attack()
    assert s.power("Robot/Cyborg") == 5
    s = Scene(a=["Robot/Cyborg"], flag=("B", [DRAGON]), final=True).attack()
    assert s.power("Robot/Cyborg") == 7


@covers("Robot/Virtual Ghost")
def test_virtual_ghost_sends_the_opponents_top_card_to_their_exhaust_pile() -> None:
    s = Scene(a=["Robot/Virtual Ghost"], b=[HORSE, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("B") == [HORSE]


@covers("Robot/Cyborg-Friend")
def test_cyborg_friend_gets_one_power_per_cyborg_on_the_robots_bench() -> None:
    s = Scene(
        a=["Robot/Cyborg-Friend", DRAGON],
        bench_a=["Robot/Cyborg", "Robot/Cyborg", PIG],
        flag=("B", [DRAGON]),
    ).attack()
    assert s.power("Robot/Cyborg-Friend") == 3


@covers("Robot/Mechanic")
def test_mechanic_gets_one_power_per_level_b_card_on_the_opponents_bench() -> None:
    s = Scene(a=["Robot/Mechanic", DRAGON], bench_b=[HORSE, LION, PIG], flag=("B", [DRAGON]))
    assert s.attack().power("Robot/Mechanic") == 5


@covers("Robot/Robo-Knight")
def test_robo_knight_gets_one_power_per_opponent_trophy_while_attacking() -> None:
    s = Scene(a=["Robot/Robo-Knight", DRAGON], flag=("B", [DRAGON]), trophies={"B": 3}).attack()
    assert s.power("Robot/Robo-Knight") == 6


@covers("Robot/Drone")
def test_drone_makes_the_opponent_choose_one_of_their_bench_cards_to_exhaust() -> None:
    s = Scene(a=["Robot/Drone"], bench_b=[NEWCOMER, PIG, PIG], flag=("B", [NEWCOMER])).attack()
    assert [q["side"] for q in s.questions()] == ["B"]
    assert s.exhaust("B") == [NEWCOMER]


@covers("Robot/Necromech")
def test_necromech_lets_the_opponent_put_a_base_power_two_bench_card_on_their_deck() -> None:
    s = Scene(a=["Robot/Necromech"], b=[PIG], bench_b=[TALENT], flag=("B", [NEWCOMER])).attack()
    assert [q["side"] for q in s.questions()] == ["B"]
    assert s.deck("B") == [TALENT, PIG]


@covers("Robot/Robogram")
def test_robogram_puts_the_top_level_a_card_on_top_of_the_opponents_deck() -> None:
    s = Scene(a=["Robot/Robogram"], b=[HORSE], piles={"A": [CAT]}, flag=("B", [NEWCOMER]))
    assert s.attack().deck("B") == [CAT, HORSE]


@covers("Robot/Chatbot")
def test_chatbot_losing_the_flag_gives_the_opponent_one_fan() -> None:
    s = Scene(a=[DRAGON], flag=("B", ["Robot/Chatbot"])).attack()
    assert (s.fans("A"), s.fans("B")) == (1, 0)


@covers("Robot/Autocorrect")
def test_autocorrect_loses_one_power_per_set_icon_on_the_opponents_bench() -> None:
    s = Scene(
        a=["Robot/Autocorrect", DRAGON],
        bench_b=[PIG, CAT, COW, NEWCOMER],
        flag=("B", [DRAGON, "Castle/Horse", DRAGON]),
    ).attack()
    assert s.power("Robot/Autocorrect") == 7 - 4  # Castle, Film Studio, Outer Space, City
