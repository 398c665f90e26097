"""The bot ladder works (a short run; how strong each level is is measured, not tested)."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.ladder import LEVELS, lineup, run, wilson
from tournaments.models import Tournament


def test_every_level_plays_every_seat_and_each_tournament_seats_all_three() -> None:
    lineups = [lineup(index) for index in range(12)]
    for levels in lineups:
        assert set(levels) == set(LEVELS) and len(levels) == 4
    for number in range(4):
        assert {levels[number] for levels in lineups} == set(LEVELS)


def test_the_wilson_interval_brackets_the_rate_and_narrows_with_more_games() -> None:
    low, high = wilson(30, 100)
    assert low < 0.3 < high
    wide = wilson(3, 10)
    assert wide[0] < low and high < wide[1]
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(600)
def test_a_short_ladder_plays_its_tournaments_to_the_end(catalogue: Any) -> None:
    figures = run(2)
    assert figures["tournaments"] == 2
    assert sum(figures["seats"].values()) == 8
    assert set(figures["win_rate"]) == set(figures["ci95"]) == set(LEVELS)
    assert sum(figures["wins"].values()) >= 2
    for level in LEVELS:
        low, high = figures["ci95"][level]
        assert low <= figures["win_rate"][level] <= high
        assert set(figures["decision_ms"][level]) == {"p50", "p99"}
    assert set(figures["question_ms"]["champion"]) == {"p50", "p99"}
    assert Tournament.objects.filter(status="finished").count() == 2
