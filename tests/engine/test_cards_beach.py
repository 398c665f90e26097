"""One situation per card of the Beach Cup box (Rainbow, starters, the six additional sets)."""

from __future__ import annotations

from typing import Any

from tests.engine.cards import CAT, CHAMPION, DOG, DRAGON, HORSE, NEWCOMER, PIG, TALENT
from tests.engine.scene import Scene, covers

RAT, SNAKE = "Secret Base/Rat", "Secret Base/Snake"
SEAGULL, GOAT, HAMSTER = "Beach Club/Seagull", "Mountain Top/Goat", "University/Hamster"
ROCKING_HORSE, FROG = "Toy Store/Rocking Horse", "Fairytale Forest/Frog"
HACKER = "Secret Base/Hacker"


@covers("Beach Cup Starter/Dog", "Rainbow/DJ")
def test_beach_dog_and_dj_send_a_weak_top_card_to_the_bottom_and_keep_a_strong_one() -> None:
    for card in ("Beach Cup Starter/Dog", "Rainbow/DJ"):
        s = Scene(a=[card, NEWCOMER, PIG], flag=("B", [NEWCOMER])).attack()
        assert s.deck("A") == [PIG, NEWCOMER]
        s = Scene(a=[card, DRAGON, PIG], flag=("B", [NEWCOMER])).attack()
        assert s.deck("A") == [DRAGON, PIG]


@covers("Rainbow/Backpacker", "Secret Base/Cabbage")
def test_backpacker_and_cabbage_go_to_the_exhaust_pile_instead_of_the_bench() -> None:
    for card in ("Rainbow/Backpacker", "Secret Base/Cabbage"):
        s = Scene(a=[DRAGON], flag=("B", [NEWCOMER, card])).attack()
        assert s.exhaust("B") == [card]
        assert s.bench("B") == [[NEWCOMER]]


@covers("Rainbow/Impostor")
def test_impostor_gets_one_power_per_distinct_base_power_on_the_bench() -> None:
    s = Scene(
        a=["Rainbow/Impostor", DRAGON], bench_a=[NEWCOMER, TALENT, PIG, CAT], flag=("B", [DRAGON])
    ).attack()
    assert s.power("Rainbow/Impostor") == 2 + 3


@covers("Rainbow/Streamer")
def test_streamer_doubles_every_bonus_it_receives() -> None:
    s = Scene(a=["Rainbow/Streamer", DRAGON], bench_a=["Castle/Bard"], flag=("B", [DRAGON]))
    assert s.attack().power("Rainbow/Streamer") == 3 + 2


@covers("Rainbow/Skater")
def test_skater_gains_two_fans_after_a_lost_previous_match() -> None:
    s = Scene(a=["Rainbow/Skater"], flag=("B", [NEWCOMER]), lost_previous={"A": True}).attack()
    assert s.fans("A") == 2
    assert Scene(a=["Rainbow/Skater"], flag=("B", [NEWCOMER])).attack().fans("A") == 0


def test_a_rainbow_card_carries_the_icon_of_every_set_in_play() -> None:
    s = Scene(
        a=["City/Mascot", DRAGON],
        bench_a=["Rainbow/Skater"],
        flag=("B", [DRAGON]),
        sets_in_play=("Rainbow", "Secret Base", "Beach Club", "Castle"),
    ).attack()
    assert s.power("City/Mascot") == 2 + 4


# ---------------------------------------------------------------- Secret Base


@covers("Secret Base/Thief")
def test_thief_puts_the_top_level_a_card_on_its_exhaust_pile() -> None:
    s = Scene(a=["Secret Base/Thief"], piles={"A": [CAT]}, flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("A") == [CAT]
    assert "PA2" in s.m.result().decks_after["A"]


@covers("Secret Base/Zombie")
def test_zombie_gets_one_power_per_card_in_its_exhaust_pile_while_attacking() -> None:
    s = Scene(a=["Secret Base/Zombie", DRAGON], exhaust_a=[PIG, PIG, CAT], flag=("B", [DRAGON]))
    assert s.attack().power("Secret Base/Zombie") == 5


@covers("Secret Base/Safecracker")
def test_safecracker_moves_a_card_from_the_exhaust_pile_to_the_bottom_of_the_deck() -> None:
    s = Scene(a=["Secret Base/Safecracker", PIG], exhaust_a=[TALENT, DRAGON], flag=("B", [DOG]))
    s.attack()
    assert s.deck("A") == [PIG, DRAGON]
    assert s.exhaust("A") == [TALENT]


@covers("Secret Base/Getaway Vehicle")
def test_getaway_vehicle_moves_up_to_two_secret_base_bench_cards_to_the_exhaust_pile() -> None:
    s = Scene(
        a=["Secret Base/Getaway Vehicle"], bench_a=[RAT, SNAKE, PIG], flag=("B", [NEWCOMER])
    ).attack()
    assert sorted(s.exhaust("A")) == [RAT, SNAKE]
    assert s.bench("A") == [[PIG]]


@covers("Secret Base/Hacker")
def test_hacker_puts_one_card_on_top_one_at_the_bottom_and_one_on_the_exhaust_pile() -> None:
    for version in (1, 2):  # all three slots filled: both readings agree
        s = Scene(
            a=[HACKER, NEWCOMER, PIG, DRAGON, TALENT], flag=("B", [NEWCOMER]), rules_version=version
        ).attack()
        assert s.deck("A") == [DRAGON, TALENT, PIG]
        assert s.exhaust("A") == [NEWCOMER]


def test_hacker_with_three_deck_cards_asks_for_all_three_slots() -> None:
    s = Scene(a=[HACKER, NEWCOMER, PIG, DRAGON], flag=("B", [NEWCOMER]), policies={"A": None})
    question = s.attack().question
    assert question is not None and question.kind == "arrange_top"
    assert question.prompt == (
        "Order: the first 1 back on top (first = top), then 1 to the bottom,"
        " then 1 to your exhaust pile"
    )


# The issue's situation: A = [Champion, Talent], B = [Hacker, Hacker], B opens in round 1.
HACKERS: dict[str, Any] = {"a": [CHAMPION, TALENT], "b": [HACKER, HACKER], "round": 1}


def test_hacker_with_one_deck_card_puts_it_at_the_bottom_and_its_owner_wins() -> None:
    s = Scene(**HACKERS).open("B")
    assert s.deck("B") == [HACKER] and s.exhaust("B") == []
    assert [(e["top"], e["bottom"]) for e in s.events("arranged")] == [([], ["B4"])]
    assert s.questions() == []  # one card, one place: nothing to choose
    s.play()
    assert (s.winner, s.reason) == ("B", "empty_deck")


def test_hacker_with_one_deck_card_is_exhausted_under_the_rules_of_version_one() -> None:
    s = Scene(**HACKERS, rules_version=1).open("B")
    assert s.deck("B") == [] and s.exhaust("B") == [HACKER]
    s.play()
    assert (s.winner, s.reason) == ("A", "empty_deck")


def test_hacker_with_two_deck_cards_keeps_both_one_at_the_bottom_one_on_top() -> None:
    s = Scene(a=[HACKER, PIG, DRAGON], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, PIG]  # the default answer: the stronger one on top
    assert s.exhaust("A") == []
    s = Scene(a=[HACKER, PIG, DRAGON], flag=("B", [NEWCOMER]), answers=[["A2", "A3"]]).attack()
    assert s.deck("A") == [PIG, DRAGON]  # read as: top, then bottom
    assert [(e["top"], e["bottom"]) for e in s.events("arranged")] == [(["A2"], ["A3"])]


def test_hacker_with_two_deck_cards_asks_for_a_top_and_a_bottom_card_only() -> None:
    s = Scene(a=[HACKER, PIG, DRAGON], flag=("B", [NEWCOMER]), policies={"A": None}).attack()
    question = s.question
    assert question is not None and question.kind == "arrange_top"
    assert (question.options, question.min, question.max) == (("A2", "A3"), 2, 2)
    assert question.prompt == "Order: the first 1 back on top (first = top), then 1 to the bottom"


def test_hacker_with_two_deck_cards_exhausts_one_under_the_rules_of_version_one() -> None:
    s = Scene(a=[HACKER, PIG, DRAGON], flag=("B", [NEWCOMER]), rules_version=1).attack()
    assert s.deck("A") == [DRAGON] and s.exhaust("A") == [PIG]


def _looked_at(card: str, deck: list[str], version: int) -> Scene:
    """``card``'s effect on A's ``deck`` (Navigator's when it loses the flag)."""
    if card == "Navigator":
        return Scene(a=deck, b=[DRAGON], flag=("A", [card]), rules_version=version).attack()
    return Scene(a=[card, *deck], flag=("B", [DRAGON, NEWCOMER]), rules_version=version).attack()


def test_the_other_look_at_cards_read_the_same_under_both_rule_versions() -> None:
    for card in ("Reporter", "Navigator", "Juggler", "Bumper Car"):
        for deck in ([PIG], [PIG, DRAGON], [PIG, DRAGON, CAT]):
            old, new = (_looked_at(card, deck, version) for version in (1, 2))
            ran = [new.m.key_of(new.m.uid.index(e["card"])) for e in new.events("effect")]
            assert [key.split("/")[1] for key in ran] == [card], (card, deck)
            assert old.m.events == new.m.events, (card, deck)
            assert old.deck("A") == new.deck("A") and sorted(new.deck("A")) == sorted(deck)


@covers("Secret Base/Scientist")
def test_scientist_puts_a_level_a_bench_card_on_top_of_the_deck() -> None:
    s = Scene(a=["Secret Base/Scientist"], bench_a=[HORSE, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [PIG]


# ---------------------------------------------------------------- Beach Club


@covers("Beach Club/Kid")
def test_kid_gets_four_power_while_no_bench_card_has_base_power_four_or_more() -> None:
    s = Scene(a=["Beach Club/Kid", DRAGON], bench_a=[PIG], flag=("B", [DRAGON])).attack()
    assert s.power("Beach Club/Kid") == 5
    s = Scene(a=["Beach Club/Kid", DRAGON], bench_a=[CHAMPION], flag=("B", [DRAGON])).attack()
    assert s.power("Beach Club/Kid") == 1


@covers("Beach Club/Animateur")
def test_animateur_gives_every_newcomer_one_power() -> None:
    s = Scene(
        a=[NEWCOMER, "Beach Club/Newcomer", DRAGON],
        bench_a=["Beach Club/Animateur"],
        flag=("B", [DRAGON]),
    ).attack()
    assert s.power(NEWCOMER) == 2
    assert s.power("Beach Club/Newcomer") == 3


@covers("Beach Club/Newcomer")
def test_beach_club_newcomer_shares_the_newcomers_seat() -> None:
    s = Scene(a=[DRAGON], bench_b=[NEWCOMER, PIG], flag=("B", ["Beach Club/Newcomer"])).attack()
    assert s.bench("B") == [[NEWCOMER, "Beach Club/Newcomer"], [PIG]]


@covers("Beach Club/Ice Cream Truck")
def test_ice_cream_truck_gives_beach_club_cards_one_power() -> None:
    s = Scene(a=[SEAGULL, DRAGON], bench_a=["Beach Club/Ice Cream Truck"], flag=("B", [DRAGON]))
    assert s.attack().power(SEAGULL) == 4


@covers("Beach Club/Swimmer")
def test_swimmer_gets_one_power_per_card_in_the_seat_it_picks() -> None:
    s = Scene(
        a=["Beach Club/Swimmer", DRAGON], bench_a=[NEWCOMER, PIG, PIG, PIG], flag=("B", [DRAGON])
    ).attack()
    assert s.power("Beach Club/Swimmer") == 3 + 3


@covers("Beach Club/Sandstorm")
def test_sandstorm_puts_the_top_level_c_card_on_top_of_its_deck() -> None:
    s = Scene(a=["Beach Club/Sandstorm", PIG], piles={"C": [DRAGON]}, flag=("B", [NEWCOMER]))
    assert s.attack().deck("A") == [DRAGON, PIG]


@covers("Beach Club/Diver")
def test_diver_may_bring_a_strong_bottom_card_to_the_top() -> None:
    s = Scene(a=["Beach Club/Diver", NEWCOMER, DRAGON], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, NEWCOMER]
    s = Scene(a=["Beach Club/Diver", DRAGON, NEWCOMER], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, NEWCOMER]


# ---------------------------------------------------------------- Mountain Top


@covers("Mountain Top/Yodeler")
def test_yodeler_gains_a_fan_only_when_it_does_not_take_the_flag() -> None:
    s = Scene(a=["Mountain Top/Yodeler", DRAGON], flag=("B", [DRAGON])).attack()
    assert s.fans("A") == 1
    s = Scene(a=["Mountain Top/Yodeler"], flag=("B", [NEWCOMER])).attack()
    assert s.fans("A") == 0


@covers("Mountain Top/Climber")
def test_climber_gets_two_power_when_the_opponents_exhaust_pile_is_not_empty() -> None:
    s = Scene(a=["Mountain Top/Climber", DRAGON], exhaust_b=[PIG], flag=("B", [DRAGON])).attack()
    assert s.power("Mountain Top/Climber") == 4


@covers("Mountain Top/Skier")
def test_skier_must_send_an_opponents_bench_card_to_their_exhaust_pile() -> None:
    s = Scene(a=["Mountain Top/Skier"], bench_b=[NEWCOMER], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("B") == [NEWCOMER]
    assert s.questions() == []  # a single candidate: no choice to make


@covers("Mountain Top/Snowman")
def test_snowman_holding_the_flag_has_three_more_power() -> None:
    s = Scene(a=[DRAGON], flag=("B", ["Mountain Top/Snowman"])).attack()
    assert s.totals() == [(7, 6)]


@covers("Mountain Top/Vet")
def test_vet_gives_attacking_base_power_three_cards_one_power() -> None:
    s = Scene(a=[PIG, DRAGON], bench_a=["Mountain Top/Vet"], flag=("B", [DRAGON])).attack()
    assert s.power(PIG) == 4


@covers("Mountain Top/Ice Bob")
def test_ice_bob_gives_the_mountain_top_card_holding_the_flag_one_power() -> None:
    s = Scene(a=[PIG, NEWCOMER], bench_b=["Mountain Top/Ice Bob"], flag=("B", [GOAT])).attack()
    assert s.totals() == [(3, 4), (4, 4)]


@covers("Mountain Top/Yeti")
def test_yeti_holding_the_flag_gains_a_fan_per_card_revealed_against_it() -> None:
    s = Scene(a=[NEWCOMER, NEWCOMER, DRAGON], flag=("B", ["Mountain Top/Yeti"])).attack()
    assert s.fans("B") == 3


@covers("Mountain Top/Zeppelin")
def test_zeppelin_loses_the_match_when_a_level_c_card_is_on_its_owners_bench() -> None:
    s = Scene(a=["Mountain Top/Zeppelin"], bench_a=[DRAGON], flag=("B", [NEWCOMER])).attack()
    assert (s.winner, s.reason) == ("B", "zeppelin")
    s = Scene(a=["Mountain Top/Zeppelin"], bench_a=[HORSE], flag=("B", [DRAGON])).attack()
    assert s.winner is None and s.flag() == ("A", ["Mountain Top/Zeppelin"])


# ---------------------------------------------------------------- University


@covers("University/Quarterback")
def test_quarterback_gets_one_power_per_fan_token_while_attacking() -> None:
    s = Scene(a=["University/Quarterback", DRAGON], fans={"A": 3}, flag=("B", [DRAGON])).attack()
    assert s.power("University/Quarterback") == 4


@covers("University/Coffee Machine")
def test_coffee_machine_gives_attacking_university_cards_one_power() -> None:
    s = Scene(a=[HAMSTER, DRAGON], bench_a=["University/Coffee Machine"], flag=("B", [DRAGON]))
    assert s.attack().power(HAMSTER) == 4


@covers("University/Professor")
def test_professor_gains_a_fan_with_a_university_card_on_the_bench() -> None:
    s = Scene(a=["University/Professor"], bench_a=[HAMSTER], flag=("B", [NEWCOMER])).attack()
    assert s.fans("A") == 1
    assert Scene(a=["University/Professor"], flag=("B", [NEWCOMER])).attack().fans("A") == 0


@covers("University/Janitor")
def test_janitor_may_exhaust_one_of_the_weakest_bench_cards() -> None:
    s = Scene(
        a=["University/Janitor"], bench_a=[PIG, NEWCOMER, TALENT], flag=("B", [NEWCOMER])
    ).attack()
    assert s.exhaust("A") == [NEWCOMER]


@covers("University/Personal Coach")
def test_personal_coach_gets_one_power_per_five_fan_tokens() -> None:
    s = Scene(a=["University/Personal Coach", DRAGON], fans={"A": 11}, flag=("B", [DRAGON]))
    assert s.attack().power("University/Personal Coach") == 6


@covers("University/Final Exam")
def test_final_exam_gets_one_power_per_bench_card_of_base_power_three_or_less() -> None:
    s = Scene(
        a=["University/Final Exam", DRAGON], bench_a=[NEWCOMER, PIG, DRAGON], flag=("B", [DRAGON])
    ).attack()
    assert s.power("University/Final Exam") == 5


@covers("University/Tutor")
def test_tutor_puts_any_card_of_its_deck_on_top() -> None:
    s = Scene(a=["University/Tutor", NEWCOMER, DRAGON], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, NEWCOMER]


# ---------------------------------------------------------------- Toy Store


@covers("Toy Store/Model Railway")
def test_model_railway_not_taking_the_flag_puts_a_level_a_bench_card_on_top() -> None:
    s = Scene(a=["Toy Store/Model Railway", DRAGON], bench_a=[PIG], flag=("B", [DRAGON])).attack()
    assert [e["key"] for e in s.events("reveal")] == ["Toy Store/Model Railway", PIG, DRAGON]


@covers("Toy Store/Action Figure")
def test_action_figure_not_taking_the_flag_gives_the_next_card_two_power() -> None:
    s = Scene(a=["Toy Store/Action Figure", PIG, DRAGON], flag=("B", [DRAGON])).attack()
    assert s.power(PIG) == 5


@covers("Toy Store/Puppet")
def test_puppet_gets_two_power_when_a_card_lies_beneath_it() -> None:
    s = Scene(a=[NEWCOMER, "Toy Store/Puppet", DRAGON], flag=("B", [DRAGON])).attack()
    assert s.power("Toy Store/Puppet") == 4
    s = Scene(a=["Toy Store/Puppet", DRAGON], flag=("B", [DRAGON])).attack()
    assert s.power("Toy Store/Puppet") == 2


@covers("Toy Store/Shop Clerk")
def test_shop_clerk_with_a_toy_store_bench_card_exhausts_the_opponents_top_card() -> None:
    s = Scene(
        a=["Toy Store/Shop Clerk"], b=[HORSE], bench_a=[ROCKING_HORSE], flag=("B", [NEWCOMER])
    ).attack()
    assert s.exhaust("B") == [HORSE]
    s = Scene(a=["Toy Store/Shop Clerk"], b=[HORSE], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("B") == []


@covers("Toy Store/Wind Up Car")
def test_wind_up_car_may_remove_a_bench_card_for_good_to_get_four_power() -> None:
    s = Scene(a=["Toy Store/Wind Up Car", DRAGON], bench_a=[NEWCOMER], flag=("B", [DRAGON]))
    s.attack()
    assert s.power("Toy Store/Wind Up Car") == 6
    assert s.removed("A") == [NEWCOMER]
    assert "A3" not in s.m.result().decks_after["A"]


@covers("Toy Store/Karaoke Kit")
def test_karaoke_kit_not_taking_the_flag_slides_a_level_b_card_under_its_deck() -> None:
    s = Scene(
        a=["Toy Store/Karaoke Kit", DRAGON, PIG], piles={"B": [HORSE]}, flag=("B", [DRAGON])
    ).attack()
    assert s.deck("A") == [PIG, HORSE]


@covers("Toy Store/Game Collector")
def test_game_collector_not_taking_the_flag_gives_the_next_card_six_power() -> None:
    s = Scene(a=["Toy Store/Game Collector", PIG, DRAGON], flag=("B", [DRAGON])).attack()
    assert s.power(PIG) == 9


def _powers_at_reveal(s: Scene, uid: str) -> list[int]:
    """The power of card ``uid`` recorded at each of its reveals."""
    return [e["power"] for e in s.events("attack") if e["card"] == uid]


def test_a_card_revealed_again_after_returning_to_its_deck_has_lost_its_given_bonus() -> None:
    # Pig gets Game Collector's +6, takes the flag, is benched when B takes it back, and Model
    # Railway puts it on top of the deck again: its second reveal is a new reveal, without +6.
    s = Scene(
        a=["Toy Store/Game Collector", PIG, "Toy Store/Model Railway", NEWCOMER],
        b=[DRAGON, DRAGON],
        flag=("B", [DRAGON]),
    )
    s.attack().attack()
    assert s.flag() == ("B", [DRAGON, DRAGON]) and s.bench_keys("A").count(PIG) == 1
    s.attack()
    assert [e["card"] for e in s.events("reveal")].count("A2") == 2
    assert _powers_at_reveal(s, "A2") == [3 + 6, 3]


def test_a_card_revealed_again_after_returning_to_its_deck_counts_its_own_bonus_anew() -> None:
    # Kid's +4 (no bench card of base power 4 or more) held at its first reveal; at its second,
    # after Model Railway put it back on top, the Dragon benched with it is on the bench.
    kid = "Beach Club/Kid"
    s = Scene(a=[kid, DRAGON, "Toy Store/Model Railway"], b=[DRAGON, DRAGON], flag=("B", [DRAGON]))
    s.attack().attack()
    assert sorted(s.bench_keys("A")) == sorted([kid, DRAGON])
    s.attack()
    assert _powers_at_reveal(s, "A1") == [1 + 4, 1]


# ---------------------------------------------------------------- Fairytale Forest


@covers("Fairytale Forest/Fairy", "Fairytale Forest/Carriage")
def test_fairy_and_carriage_exhaust_every_card_of_one_bench_seat() -> None:
    for card in ("Fairytale Forest/Fairy", "Fairytale Forest/Carriage"):
        s = Scene(a=[card], bench_a=[NEWCOMER, PIG, PIG], flag=("B", [NEWCOMER])).attack()
        assert s.exhaust("A") == [PIG, PIG]
        assert s.bench("A") == [[NEWCOMER]]


@covers("Fairytale Forest/Dwarf")
def test_dwarf_going_to_the_exhaust_pile_goes_on_top_of_the_deck_instead() -> None:
    s = Scene(
        a=["Haunted House/Butler", PIG], bench_a=["Fairytale Forest/Dwarf"], flag=("B", [DOG])
    )
    s.attack()
    assert s.exhaust("A") == []
    assert [e["to"] for e in s.events("moved")] == ["deck_top"]
    assert [e["key"] for e in s.events("reveal")] == [
        "Haunted House/Butler",
        "Fairytale Forest/Dwarf",
    ]


@covers("Fairytale Forest/Mirror")
def test_mirror_not_taking_the_flag_puts_a_fairytale_forest_bench_card_on_top() -> None:
    s = Scene(a=["Fairytale Forest/Mirror", DRAGON], bench_a=[FROG, PIG], flag=("B", [DRAGON]))
    s.attack()
    assert [e["key"] for e in s.events("reveal")][:2] == ["Fairytale Forest/Mirror", FROG]


@covers("Fairytale Forest/Gingerbread Man")
def test_gingerbread_man_gives_the_base_power_four_flag_card_one_power() -> None:
    s = Scene(
        a=[CHAMPION, NEWCOMER], bench_b=["Fairytale Forest/Gingerbread Man"], flag=("B", [CHAMPION])
    ).attack()
    assert s.totals() == [(4, 5), (5, 5)]


@covers("Fairytale Forest/Troll")
def test_troll_needs_two_empty_seats_or_its_owner_loses() -> None:
    s = Scene(a=[DRAGON], bench_b=[PIG, CAT, TALENT, DOG], flag=("B", ["Fairytale Forest/Troll"]))
    s.attack()
    assert s.winner is None and s.m.empty_seats(1) == 0
    s = Scene(
        a=[DRAGON, DRAGON],
        bench_b=[PIG, CAT, TALENT, DOG, HORSE],
        flag=("B", ["Fairytale Forest/Troll"]),
    ).attack()
    assert (s.winner, s.reason) == ("A", "troll_no_seats")


def test_a_troll_may_join_a_troll_already_seated() -> None:
    troll = "Fairytale Forest/Troll"
    s = Scene(a=[DRAGON], bench_b=[troll, PIG, CAT, TALENT, DOG], flag=("B", [troll])).attack()
    assert s.winner is None and [troll, troll] in s.bench("B")


@covers("Fairytale Forest/Cauldron")
def test_cauldron_removes_a_level_a_bench_card_for_good() -> None:
    s = Scene(a=["Fairytale Forest/Cauldron"], bench_a=[HORSE, PIG], flag=("B", [NEWCOMER]))
    s.attack()
    assert s.removed("A") == [PIG]
