"""The pure league rules: placements and points, the tie-break vector on constructed ties, the
season's options and the scoring table's checks."""

from __future__ import annotations

import pytest

from leagues.rules.scoring import (
    DEFAULT_SCORING,
    Finisher,
    LeagueRuleError,
    Outcome,
    Totals,
    check_scoring,
    check_season_options,
    corrected,
    placements,
    played_it,
    ranked,
)


def test_the_champion_and_the_finalist_come_first_then_the_fans_rank() -> None:
    finishers = [
        Finisher(1, fans=30, trophies=3, highest_round=7),
        Finisher(2, fans=12, champion=True, finalist=True),
        Finisher(3, fans=20, finalist=True),
        Finisher(4, fans=30, trophies=2, highest_round=7),
        Finisher(5, fans=5),
    ]
    placed = {p.key: (p.place, p.points) for p in placements(finishers, DEFAULT_SCORING)}
    assert placed == {2: (1, 11), 3: (2, 7), 1: (3, 5), 4: (4, 4), 5: (5, 3)}


def test_seats_equal_on_every_count_share_a_place_and_its_points() -> None:
    finishers = [Finisher(1, fans=9), Finisher(2, fans=9), Finisher(3, fans=4)]
    placed = {p.key: (p.place, p.points) for p in placements(finishers, DEFAULT_SCORING)}
    assert placed == {1: (1, 5), 2: (1, 5), 3: (3, 3)}


def test_places_past_the_table_score_only_for_playing() -> None:
    table = check_scoring({"by_fans_rank": [2], "played": 1})
    placed = placements([Finisher(k, fans=10 - k) for k in range(3)], table)
    assert [p.points for p in placed] == [3, 1, 1]


def test_each_rank_says_which_criterion_decided_it() -> None:
    rows = [
        Totals(1, points=20, wins=2, finals=3, fans=90, played=10),
        Totals(2, points=20, wins=2, finals=3, fans=90, played=9),  # fewer played: above 1
        Totals(3, points=20, wins=2, finals=2, fans=99, played=9),
        Totals(4, points=20, wins=1, finals=5, fans=99, played=9),
        Totals(5, points=25, wins=0, finals=0, fans=10, played=10),
        Totals(6, points=20, wins=2, finals=3, fans=80, played=9),
        Totals(7, points=20, wins=2, finals=3, fans=80, played=9),  # tied with 6
    ]
    table = [(r.rank, r.totals.key, r.decided_by) for r in ranked(rows)]
    assert table == [
        (1, 5, None),
        (2, 2, "points"),
        (3, 1, "played"),
        (4, 6, "fans"),
        (4, 7, "tied"),
        (6, 3, "finals"),
        (7, 4, "wins"),
    ]
    assert ranked(rows)[1].totals.vector() == {
        "points": 20,
        "wins": 2,
        "finals": 3,
        "fans": 90,
        "played": 9,
    }


def test_a_season_tournament_takes_the_season_options_and_refuses_others() -> None:
    season = {
        "basic_set": "City",
        "additional_sets": None,
        "beach_cup": True,
        "winter_mode": "normal",
        "robot_difficulty": 3,
    }
    chosen = check_season_options(season, {"seat_count": 4, "beach_cup": True})
    assert chosen["winter_mode"] == "normal" and chosen["robot_difficulty"] == 3
    assert "additional_sets" not in chosen  # the season leaves the draw free
    with pytest.raises(LeagueRuleError) as refused:
        check_season_options(season, {"beach_cup": False, "robot_difficulty": 3})
    assert refused.value.code == "season_options"
    assert refused.value.details == {"beach_cup": {"season": True, "given": False}}
    fixed = {**season, "additional_sets": ["A", "B"]}
    assert check_season_options(fixed, {"additional_sets": ["B", "A"]})["additional_sets"]


@pytest.mark.parametrize(
    "table", [{"champion": "ten"}, {"bonus": 1}, {"by_fans_rank": 3}, {"played": True}]
)
def test_a_scoring_table_holds_integers_only(table: dict[str, object]) -> None:
    with pytest.raises(LeagueRuleError) as refused:
        check_scoring(table)
    assert refused.value.code == "bad_scoring"


def test_equal_fans_are_split_by_trophies_then_the_highest_round_for_points_too() -> None:
    finishers = [
        Finisher(1, fans=9, trophies=1, highest_round=3),
        Finisher(2, fans=9, trophies=2, highest_round=1),
        Finisher(3, fans=9, trophies=2, highest_round=4),
        Finisher(4, fans=9, trophies=2, highest_round=4),
    ]
    placed = {p.key: (p.place, p.points) for p in placements(finishers, DEFAULT_SCORING)}
    assert placed == {3: (1, 5), 4: (1, 5), 2: (3, 3), 1: (4, 2)}


def test_a_manual_result_names_the_finalists_as_a_played_final_does() -> None:
    played = [Outcome(1, 1, 11, True, True), Outcome(2, 2, 7, False, True), Outcome(3, 3, 5)]
    manual = corrected(played, DEFAULT_SCORING, places={1: 1, 2: 2, 3: 3}, final=True)
    assert [(e.champion, e.finalist) for e in manual] == [(e.champion, e.finalist) for e in played]


def test_a_manual_result_of_a_game_without_a_final_names_no_finalist() -> None:
    played = [Outcome(1, 1, 11, True, False), Outcome(2, 2, 5)]
    manual = corrected(played, DEFAULT_SCORING, places={1: 2, 2: 1}, final=False)
    assert [(e.key, e.place, e.points, e.champion, e.finalist) for e in manual] == [
        (2, 1, 11, True, False),
        (1, 2, 5, False, False),
    ]


@pytest.mark.parametrize(
    ("dropped", "reclaimed_round", "credited"),
    [
        (False, None, True),
        (True, None, False),
        (False, 7, True),
        (False, 8, False),
        (True, 3, False),
    ],
)
def test_a_member_is_credited_only_if_it_played_the_last_round(
    dropped: bool, reclaimed_round: int | None, credited: bool
) -> None:
    assert played_it(dropped=dropped, reclaimed_round=reclaimed_round, last_round=8) is credited
