"""The round-robin plan, trophy dealing, Winter Park moves and the Robot deck."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tournaments.rules.data import draft_options, parks_for
from tournaments.rules.plan import ROBOT, compute_plan, places, plan_from_data, plan_to_data
from tournaments.rules.robot import START_CARDS, r_cards, robot_deck
from tournaments.rules.trophies import deal_trophies
from tournaments.rules.winter import next_winter_index, park_kind, winter_parks


@pytest.mark.parametrize("seats", range(1, 9))
def test_every_place_plays_exactly_once_each_round(seats: int) -> None:
    plan = compute_plan(seats)
    assert len(plan) == 7
    for row in plan:
        played = [s for p in row for s in p.seats()]
        assert sorted(played) == sorted(places(seats))
        assert len({p.park for p in row}) == len(row)


def test_eight_seats_meet_every_other_seat_exactly_once() -> None:
    plan = compute_plan(8)
    pairs = Counter(frozenset(p.seats()) for row in plan for p in row)
    assert set(pairs) == {frozenset(c) for c in itertools.combinations(range(8), 2)}
    assert set(pairs.values()) == {1}


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_no_pair_meets_twice_before_every_pair_has_met(seats: int) -> None:
    plan = compute_plan(seats)
    everyone = {frozenset(c) for c in itertools.combinations(places(seats), 2)}
    seen: set[frozenset[int]] = set()
    for row in plan:
        for pairing in row:
            pair = frozenset(pairing.seats())
            if pair in seen:
                assert seen == everyone
            seen.add(pair)
        if seen == everyone:
            seen = set()


def test_an_odd_table_seats_the_robot_and_a_solo_player_meets_it_every_round() -> None:
    assert places(3) == [0, 1, 2, ROBOT]
    assert all(row[0].seats() in {(0, ROBOT), (ROBOT, 0)} for row in compute_plan(1))


@pytest.mark.parametrize("seats", range(3, 9))
def test_nobody_stays_in_one_park_all_game(seats: int) -> None:
    plan = compute_plan(seats)
    for seat in places(seats):
        parks = {p.park for row in plan for p in row if seat in p.seats()}
        assert len(parks) > 1


def test_a_plan_survives_its_json_form() -> None:
    plan = compute_plan(6)
    assert plan_from_data(plan_to_data(plan)) == plan


def test_parks_follow_the_table_size() -> None:
    assert parks_for(2) == ("green",)
    assert parks_for(4) == ("green", "red")
    assert parks_for(5) == ("green", "red", "purple")
    assert parks_for(8) == ("green", "red", "purple", "yellow")


def test_each_park_gets_one_trophy_per_round_from_that_rounds_values() -> None:
    stacks = deal_trophies(random.Random(3), ["green", "red", "purple", "yellow"])
    assert stacks["green"][0] in (2, 3)
    assert sorted(stacks[p][0] for p in stacks) in ([2, 2, 2, 3],)
    round_seven = sorted(stacks[p][6] for p in stacks)
    assert round_seven == [9, 9, 10, 10]
    assert sorted(stacks[p][3] for p in stacks) == [5, 5, 6, 6]


def test_draft_options_follow_the_box() -> None:
    base = draft_options(beach_cup=False, round_number=3)
    assert [o.label for o in base] == ["2 from A", "1 from B"]
    beach = draft_options(beach_cup=True, round_number=2)
    assert [(o.pile, o.count, o.fans) for o in beach] == [("A", 2, 2), ("B", 1, 0)]
    assert draft_options(beach_cup=True, round_number=1)[0].count == 3


def test_the_winter_park_moves_about_half_the_time_to_the_next_park() -> None:
    rng = random.Random(11)
    moves = sum(next_winter_index(rng, 0, 3) == 1 for _ in range(2000))
    assert 850 < moves < 1150
    assert next_winter_index(random.Random(0), 3, 4) in (3, 0)


def test_winter_modes_name_the_winter_parks() -> None:
    parks = ("green", "red")
    assert winter_parks("off", parks, 0) == frozenset()
    assert winter_parks("normal", parks, 1) == {"red"}
    assert winter_parks("all", parks, 0) == {"green", "red"}
    assert park_kind("normal", parks, 0, "red") == "normal"


def test_robot_difficulty_one_plays_the_start_cards() -> None:
    assert robot_deck(random.Random(1), difficulty=1, solo_challenge=False) == list(START_CARDS)


def test_robot_difficulty_replaces_two_start_cards_per_level() -> None:
    for level in range(1, 6):
        deck = robot_deck(random.Random(level), difficulty=level, solo_challenge=False)
        assert len(deck) == 8
        assert sum(key in set(r_cards()) for key in deck) == 2 * (level - 1)
    top = robot_deck(random.Random(9), difficulty=5, solo_challenge=False)
    assert sorted(top) == sorted(r_cards())


def test_the_solo_challenge_adds_each_solo_card_about_half_the_time() -> None:
    rng = random.Random(5)
    sizes = Counter(len(robot_deck(rng, difficulty=1, solo_challenge=True)) for _ in range(800))
    assert set(sizes) <= {8, 9, 10, 11}
    assert 250 < sum(size - 8 for size in sizes.elements()) / 3 < 550


def test_robot_difficulty_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        robot_deck(random.Random(1), difficulty=6, solo_challenge=False)
