"""Fans, tie-breaks, the Final's qualification and the 11-fan lead (rules.md §2.5)."""

from __future__ import annotations

import random

from tournaments.rules.standings import (
    Standing,
    finalists,
    lead_winner,
    ranked,
    winners_after_last_round,
)


def test_fans_are_trophy_fans_plus_tokens() -> None:
    standing = Standing(seat=0, tokens=3, trophies=((1, 2), (4, 6)))
    assert (standing.fans, standing.trophy_count, standing.highest_round) == (11, 2, 4)


def test_a_tie_on_fans_goes_to_more_trophies_then_the_highest_round() -> None:
    few = Standing(seat=0, tokens=7, trophies=((7, 9),))
    many = Standing(seat=1, tokens=0, trophies=((1, 2), (2, 3), (3, 4), (6, 7)))
    late = Standing(seat=2, tokens=0, trophies=((1, 2), (2, 3), (3, 4), (7, 7)))
    assert [s.seat for s in ranked([few, many, late])] == [2, 1, 0]
    assert finalists([few, many, late], random.Random(0)) == (2, 1)


def test_a_tie_that_survives_every_break_is_drawn_from_the_seed() -> None:
    seats = [Standing(seat=n, tokens=5) for n in range(4)]
    draws = {finalists(seats, random.Random(seed)) for seed in range(40)}
    assert len(draws) > 1
    assert finalists(seats, random.Random(3)) == finalists(seats, random.Random(3))


def test_an_eleven_fan_lead_wins_at_once_and_ten_does_not() -> None:
    assert lead_winner([Standing(0, 13), Standing(1, 2)]) == 0
    assert lead_winner([Standing(0, 2), Standing(1, 13)]) == 1
    assert lead_winner([Standing(0, 12), Standing(1, 2)]) is None


def test_after_round_seven_a_full_tie_is_a_shared_win() -> None:
    one = Standing(0, 0, ((3, 4),))
    two = Standing(1, 0, ((3, 4),))
    assert winners_after_last_round([one, two]) == [0, 1]
    assert winners_after_last_round([one, Standing(1, 1, ((3, 4),))]) == [1]
