"""One situation per card of the base box (City and the six additional sets)."""

from __future__ import annotations

from tests.engine.cards import (
    BAT,
    CAT,
    CHAMPION,
    CITY_TALENT,
    COW,
    DOG,
    DRAGON,
    HORSE,
    LION,
    NEWCOMER,
    PARROT,
    PIG,
    PONY,
    SPIDER,
    TALENT,
)
from tests.engine.scene import Scene, covers

# ---------------------------------------------------------------- City


@covers("City/Reporter")
def test_reporter_puts_the_stronger_of_the_top_two_on_top_and_the_other_at_the_bottom() -> None:
    s = Scene(a=["City/Reporter", NEWCOMER, DRAGON, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, PIG, NEWCOMER]


def test_reporter_owner_may_keep_the_weaker_card_on_top() -> None:
    s = Scene(
        a=["City/Reporter", NEWCOMER, DRAGON, PIG], flag=("B", [NEWCOMER]), answers=[["A2", "A3"]]
    ).attack()
    assert s.deck("A") == [NEWCOMER, PIG, DRAGON]


@covers("City/Mascot")
def test_mascot_gets_one_power_per_distinct_set_icon_on_the_bench() -> None:
    s = Scene(a=["City/Mascot", DRAGON], bench_a=[PIG, CAT, COW, NEWCOMER], flag=("B", [DRAGON]))
    assert s.attack().power("City/Mascot") == 2 + 4  # Castle, Film Studio, Outer Space, City


@covers("City/Fan-Bus")
def test_fan_bus_gains_two_fans_for_a_player_with_three_trophies_or_fewer() -> None:
    s = Scene(a=["City/Fan-Bus"], flag=("B", [NEWCOMER]), trophies={"A": 3}).attack()
    assert s.fans("A") == 2
    s = Scene(a=["City/Fan-Bus"], flag=("B", [NEWCOMER]), trophies={"A": 4}).attack()
    assert s.fans("A") == 0


# ---------------------------------------------------------------- Castle


@covers("Castle/Jester")
def test_jester_gets_three_power_when_a_base_power_one_card_is_on_the_bench() -> None:
    s = Scene(a=["Castle/Jester", DRAGON], bench_a=[NEWCOMER], flag=("B", [DRAGON])).attack()
    assert s.power("Castle/Jester") == 4
    s = Scene(a=["Castle/Jester", DRAGON], bench_a=[PIG], flag=("B", [DRAGON])).attack()
    assert s.power("Castle/Jester") == 1


@covers("Castle/Stable Boy")
def test_stable_boy_gets_one_power_per_base_power_three_card_on_the_bench() -> None:
    s = Scene(a=["Castle/Stable Boy", DRAGON], bench_a=[PIG, CAT, HORSE], flag=("B", [DRAGON]))
    assert s.attack().power("Castle/Stable Boy") == 4


@covers("Castle/Hermit")
def test_hermit_gets_two_power_only_when_no_city_card_is_on_the_bench() -> None:
    s = Scene(a=["Castle/Hermit", DRAGON], bench_a=[PIG, CAT], flag=("B", [DRAGON])).attack()
    assert s.power("Castle/Hermit") == 4
    s = Scene(a=["Castle/Hermit", DRAGON], bench_a=[CITY_TALENT], flag=("B", [DRAGON])).attack()
    assert s.power("Castle/Hermit") == 2


@covers("Castle/Blacksmith")
def test_blacksmith_on_the_bench_gives_city_cards_one_power_attacking_and_holding() -> None:
    s = Scene(a=[CITY_TALENT, DRAGON], bench_a=["Castle/Blacksmith"], flag=("B", [DRAGON]))
    assert s.attack().power(CITY_TALENT) == 3
    s = Scene(b=[PIG, DRAGON], bench_a=["Castle/Blacksmith"], flag=("A", [CITY_TALENT])).attack()
    assert s.totals()[0] == (3, 3)


@covers("Castle/Knight")
def test_knight_gets_one_power_per_opponent_trophy_only_while_attacking() -> None:
    s = Scene(a=["Castle/Knight"], b=[HORSE], flag=("B", [NEWCOMER]), trophies={"B": 2})
    s.attack()
    assert s.power("Castle/Knight") == 5
    s.attack()
    assert s.totals()[-1] == (5, 3)  # holding the flag the Knight is back to 3


@covers("Castle/Sorcerer")
def test_sorcerer_may_move_a_weak_bench_card_to_the_exhaust_pile() -> None:
    s = Scene(a=["Castle/Sorcerer"], bench_a=[PIG, DRAGON], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("A") == [PIG]
    assert s.bench("A") == [[DRAGON]]


def test_sorcerer_owner_may_decline() -> None:
    s = Scene(a=["Castle/Sorcerer"], bench_a=[PIG], flag=("B", [NEWCOMER]), answers=[[]]).attack()
    assert s.exhaust("A") == []


@covers("Castle/Bard")
def test_bard_on_the_bench_gives_every_attacking_card_one_power() -> None:
    s = Scene(a=[PIG], b=[PIG, DRAGON], bench_a=["Castle/Bard"], flag=("B", [NEWCOMER]))
    s.attack().attack()
    assert s.totals() == [(4, 1), (3, 3)]  # holding the flag the Pig is back to 3


@covers("Castle/Prince")
def test_prince_losing_the_flag_goes_to_exhaust_and_the_cards_under_it_go_to_the_bench() -> None:
    s = Scene(a=[DRAGON], flag=("B", [NEWCOMER, "Castle/Prince"])).attack()
    assert s.exhaust("B") == ["Castle/Prince"]
    assert s.bench("B") == [[NEWCOMER]]


# ---------------------------------------------------------------- Film Studio


@covers("Film Studio/Make-Up Artist")
def test_make_up_artist_gives_attacking_base_power_one_cards_two_power() -> None:
    s = Scene(a=[NEWCOMER, DRAGON], bench_a=["Film Studio/Make-Up Artist"], flag=("B", [DRAGON]))
    assert s.attack().power(NEWCOMER) == 3


@covers("Film Studio/Movie Star")
def test_movie_star_returns_two_newcomers_from_the_bench_to_the_top_of_the_deck() -> None:
    s = Scene(
        a=["Film Studio/Movie Star", DRAGON],
        bench_a=[NEWCOMER, NEWCOMER, PIG],
        flag=("B", [NEWCOMER]),
    ).attack()
    assert s.deck("A") == [NEWCOMER, NEWCOMER, DRAGON]
    assert s.bench("A") == [[PIG]]


@covers("Film Studio/Gangster")
def test_gangster_has_two_more_power_while_attacking_only() -> None:
    s = Scene(a=["Film Studio/Gangster"], b=[PIG], flag=("B", [TALENT])).attack().attack()
    assert s.power("Film Studio/Gangster") == 4
    assert s.totals()[-1] == (3, 2)


@covers("Film Studio/Cowboy")
def test_cowboy_taking_the_flag_makes_the_opponent_bench_their_top_card() -> None:
    s = Scene(a=["Film Studio/Cowboy"], b=[PIG, HORSE], flag=("B", [NEWCOMER])).attack()
    assert s.bench("B") == [[NEWCOMER], [PIG]]
    assert s.deck("B") == [HORSE]


def test_cowboy_can_cost_the_opponent_the_match_when_their_bench_is_full() -> None:
    full = [TALENT, DOG, CHAMPION, HORSE, DRAGON, CAT]
    s = Scene(a=["Film Studio/Cowboy"], b=[PIG], bench_b=full, flag=("B", [TALENT])).attack()
    assert (s.winner, s.reason) == ("A", "bench_full")


@covers("Film Studio/Director")
def test_director_gives_attacking_film_studio_cards_one_power() -> None:
    s = Scene(a=[CAT, NEWCOMER, DRAGON], bench_a=["Film Studio/Director"], flag=("B", [DRAGON]))
    s.attack()
    assert s.power(CAT) == 4
    assert s.power(NEWCOMER) == 1


@covers("Film Studio/Comic Character")
def test_comic_character_losing_the_flag_gives_the_next_revealed_card_two_power() -> None:
    s = Scene(a=[DRAGON], b=[PIG, NEWCOMER, HORSE], flag=("B", ["Film Studio/Comic Character"]))
    s.attack().attack()
    assert s.power(PIG) == 5
    assert s.power(NEWCOMER) == 1


@covers("Film Studio/Heroine")
def test_heroine_taking_the_flag_gains_three_fans() -> None:
    s = Scene(a=["Film Studio/Heroine"], flag=("B", [NEWCOMER])).attack()
    assert s.fans("A") == 3
    s = Scene(a=["Film Studio/Heroine"]).open("A")
    assert s.fans("A") == 3  # the opening card takes the flag too


@covers("Film Studio/Villain")
def test_villain_puts_the_top_level_a_card_on_top_of_its_own_deck() -> None:
    s = Scene(a=["Film Studio/Villain", DRAGON], piles={"A": [PIG, CAT]}, flag=("B", [NEWCOMER]))
    s.attack()
    assert s.deck("A") == [PIG, DRAGON]
    assert [e["key"] for e in s.events("added")] == [PIG]


# ---------------------------------------------------------------- Funfair


@covers("Funfair/Clown")
def test_clown_taking_the_flag_gains_two_fans() -> None:
    assert Scene(a=["Funfair/Clown"], flag=("B", [NEWCOMER])).attack().fans("A") == 2


@covers("Funfair/Juggler", "Funfair/Bumper Car")
def test_juggler_and_bumper_car_reorder_the_top_three_cards() -> None:
    for card in ("Funfair/Juggler", "Funfair/Bumper Car"):
        s = Scene(a=[card, NEWCOMER, PIG, DRAGON, TALENT], flag=("B", [NEWCOMER])).attack()
        assert s.deck("A") == [DRAGON, PIG, NEWCOMER, TALENT]
    s = Scene(
        a=["Funfair/Juggler", NEWCOMER, PIG, DRAGON],
        flag=("B", [NEWCOMER]),
        answers=[["A4", "A2", "A3"]],
    ).attack()
    assert s.deck("A") == [DRAGON, NEWCOMER, PIG]


@covers("Funfair/Vendor")
def test_vendor_gives_funfair_cards_one_power() -> None:
    s = Scene(a=[PONY, DRAGON], bench_a=["Funfair/Vendor"], flag=("B", [DRAGON])).attack()
    assert s.power(PONY) == 4


@covers("Funfair/Mime")
def test_mime_gets_one_power_per_empty_bench_seat() -> None:
    s = Scene(a=["Funfair/Mime", DRAGON], bench_a=[PIG, PIG, CAT], flag=("B", [DRAGON])).attack()
    assert s.power("Funfair/Mime") == 1 + 4


@covers("Funfair/Pyrotechnician")
def test_pyrotechnician_gains_two_fans_when_at_most_one_card_is_left_in_the_deck() -> None:
    s = Scene(a=["Funfair/Pyrotechnician", PIG], flag=("B", [NEWCOMER])).attack()
    assert s.fans("A") == 2
    s = Scene(a=["Funfair/Pyrotechnician", PIG, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.fans("A") == 0


@covers("Funfair/Clairvoyant")
def test_clairvoyant_losing_the_flag_puts_any_card_of_its_deck_on_top() -> None:
    s = Scene(a=[DRAGON], b=[NEWCOMER, TALENT, HORSE], flag=("B", ["Funfair/Clairvoyant"]))
    assert s.attack().deck("B") == [HORSE, NEWCOMER, TALENT]


@covers("Funfair/Illusionist")
def test_illusionist_holding_the_flag_gets_one_power_per_empty_seat() -> None:
    s = Scene(a=[DRAGON, PIG], bench_b=[PIG, CAT], flag=("B", ["Funfair/Illusionist"])).attack()
    assert s.totals() == [(7, 9), (10, 9)]


# ---------------------------------------------------------------- Haunted House


@covers("Haunted House/Butler", "Haunted House/Vacuum Cleaner")
def test_butler_and_vacuum_cleaner_move_up_to_two_bench_cards_to_the_exhaust_pile() -> None:
    for card in ("Haunted House/Butler", "Haunted House/Vacuum Cleaner"):
        s = Scene(a=[card], bench_a=[NEWCOMER, TALENT, PIG], flag=("B", [NEWCOMER])).attack()
        assert s.exhaust("A") == [NEWCOMER, TALENT]
        assert s.bench("A") == [[PIG]]


@covers("Haunted House/Skeleton")
def test_skeleton_holding_the_flag_has_one_more_power() -> None:
    s = Scene(a=[TALENT, NEWCOMER], flag=("B", ["Haunted House/Skeleton"])).attack()
    assert s.totals() == [(2, 3), (3, 3)]


@covers("Haunted House/Ghost")
def test_ghost_sends_the_opponents_top_card_to_their_exhaust_pile() -> None:
    s = Scene(a=["Haunted House/Ghost"], b=[HORSE, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("B") == [HORSE]
    assert s.deck("B") == [PIG]


@covers("Haunted House/Teenager")
def test_teenager_gets_one_power_per_haunted_house_card_on_the_bench() -> None:
    s = Scene(
        a=["Haunted House/Teenager", DRAGON], bench_a=[SPIDER, BAT, PIG], flag=("B", [DRAGON])
    )
    assert s.attack().power("Haunted House/Teenager") == 4


@covers("Haunted House/Necromancer")
def test_necromancer_puts_a_base_power_two_bench_card_on_top_of_the_deck() -> None:
    s = Scene(a=["Haunted House/Necromancer"], bench_a=[TALENT, PIG], flag=("B", [NEWCOMER]))
    s.attack()
    assert s.deck("A") == [TALENT]
    assert s.bench("A") == [[PIG]]


@covers("Haunted House/Vampire")
def test_vampire_puts_a_level_b_bench_card_on_top_of_the_deck() -> None:
    s = Scene(a=["Haunted House/Vampire"], bench_a=[PIG, HORSE], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [HORSE]
    assert s.bench("A") == [[PIG]]


# ---------------------------------------------------------------- Outer Space


@covers("Outer Space/Rescue Pod")
def test_rescue_pod_losing_the_flag_leaves_the_game_and_a_level_b_card_joins_the_exhaust() -> None:
    s = Scene(a=[DRAGON], flag=("B", ["Outer Space/Rescue Pod"]), piles={"B": [HORSE]}).attack()
    assert s.removed("B") == ["Outer Space/Rescue Pod"]
    assert s.exhaust("B") == [HORSE]
    assert s.bench("B") == []


@covers("Outer Space/A.I.")
def test_ai_gives_base_power_two_cards_one_power() -> None:
    s = Scene(a=[TALENT, DRAGON], bench_a=["Outer Space/A.I."], flag=("B", [DRAGON])).attack()
    assert s.power(TALENT) == 3


@covers("Outer Space/Band")
def test_band_gives_outer_space_cards_one_power() -> None:
    s = Scene(a=[COW, DRAGON], bench_a=["Outer Space/Band"], flag=("B", [DRAGON])).attack()
    assert s.power(COW) == 4


@covers("Outer Space/UFO")
def test_ufo_slides_the_top_two_level_a_cards_under_its_deck() -> None:
    s = Scene(a=["Outer Space/UFO", PIG], piles={"A": [CAT, PONY, COW]}, flag=("B", [NEWCOMER]))
    s.attack()
    assert s.deck("A") == [PIG, CAT, PONY]
    assert s.m.result().piles_after["A"] == ["PA5"]


@covers("Outer Space/Hologram")
def test_hologram_puts_the_top_level_b_card_on_top_of_the_opponents_deck() -> None:
    s = Scene(a=["Outer Space/Hologram"], b=[PIG], piles={"B": [HORSE]}, flag=("B", [NEWCOMER]))
    assert s.attack().deck("B") == [HORSE, PIG]


# ---------------------------------------------------------------- Shipwreck


@covers("Shipwreck/Merman")
def test_merman_gets_three_power_with_a_shipwreck_card_on_the_bench() -> None:
    s = Scene(a=["Shipwreck/Merman", DRAGON], bench_a=[PARROT], flag=("B", [DRAGON])).attack()
    assert s.power("Shipwreck/Merman") == 4


@covers("Shipwreck/Treasure")
def test_treasure_holding_the_flag_has_two_more_power() -> None:
    s = Scene(a=[PIG, NEWCOMER], flag=("B", ["Shipwreck/Treasure"])).attack()
    assert s.totals() == [(3, 4), (4, 4)]


@covers("Shipwreck/Sailor")
def test_sailor_puts_any_card_of_its_deck_at_the_bottom() -> None:
    s = Scene(a=["Shipwreck/Sailor", DRAGON, NEWCOMER, PIG], flag=("B", [NEWCOMER])).attack()
    assert s.deck("A") == [DRAGON, PIG, NEWCOMER]


@covers("Shipwreck/Cook")
def test_cook_gives_the_card_holding_the_flag_one_power() -> None:
    s = Scene(a=[PIG, NEWCOMER], bench_b=["Shipwreck/Cook"], flag=("B", [PIG])).attack()
    assert s.totals() == [(3, 4), (4, 4)]


@covers("Shipwreck/Lifeguard")
def test_lifeguard_gets_two_power_when_at_most_one_card_is_left_in_the_deck() -> None:
    s = Scene(a=["Shipwreck/Lifeguard", DRAGON], flag=("B", [DRAGON])).attack()
    assert s.power("Shipwreck/Lifeguard") == 6
    s = Scene(a=["Shipwreck/Lifeguard", DRAGON, PIG], flag=("B", [DRAGON])).attack()
    assert s.power("Shipwreck/Lifeguard") == 4


@covers("Shipwreck/Navigator")
def test_navigator_losing_the_flag_keeps_the_better_of_its_top_two_on_top() -> None:
    s = Scene(a=[DRAGON], b=[NEWCOMER, HORSE, PIG], flag=("B", ["Shipwreck/Navigator"])).attack()
    assert s.deck("B") == [HORSE, PIG, NEWCOMER]


@covers("Shipwreck/Siren")
def test_siren_sends_an_opponents_bench_card_to_their_exhaust_pile() -> None:
    s = Scene(
        a=["Shipwreck/Siren"], bench_b=[PIG, "Castle/Blacksmith", PIG], flag=("B", [NEWCOMER])
    ).attack()
    assert s.exhaust("B") == ["Castle/Blacksmith"]


@covers("Shipwreck/Submarine")
def test_submarine_sends_the_bottom_card_of_its_deck_to_the_exhaust_pile() -> None:
    s = Scene(a=["Shipwreck/Submarine", PIG, LION], flag=("B", [NEWCOMER])).attack()
    assert s.exhaust("A") == [LION]
    assert s.deck("A") == [PIG]
