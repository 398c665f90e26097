"""Whole tournaments through the REST API, for every seat count and the main option mixes."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Match
from tests.tournaments.play import all_uids, card_locations, play_to_the_end
from tournaments.models import Tournament, Trophy

pytestmark = pytest.mark.django_db(transaction=True)


def check_accounting(tournament: Tournament) -> None:
    """No card lost or duplicated; every round's trophies accounted for."""
    assert card_locations(tournament) == all_uids(tournament)
    played = Trophy.objects.filter(tournament=tournament, winner__isnull=False)
    rounds = {trophy.round for trophy in played}
    last = max(rounds)
    assert rounds == set(range(1, last + 1))
    for round_number in range(1, last + 1):
        matches = Match.objects.filter(tournament=tournament, round=round_number)
        assert played.filter(round=round_number).count() == matches.count() == len(tournament.parks)


@pytest.mark.parametrize("seats", range(1, 9))
def test_a_base_box_tournament_ends_with_a_champion(catalogue: Any, seats: int) -> None:
    host = play_to_the_end(seats=seats, seed=seats)
    view = host.get()
    tournament = Tournament.objects.get(pk=view["id"])
    check_accounting(tournament)
    assert view["winners"]
    if seats >= 3:
        final = Match.objects.get(tournament=tournament, round=8)
        assert view["winners"] == [final.winner.number]  # type: ignore[union-attr]
        assert sorted(view["finalists"]) == sorted([final.seat_a.number, final.seat_b.number])
        assert Trophy.objects.filter(
            tournament=tournament, winner__isnull=False
        ).count() == 7 * len(tournament.parks)
        assert all(t["fans"] is not None for t in view["trophies"])


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (
            4,
            {
                "basic_set": "Rainbow",
                "beach_cup": True,
                "additional_sets": [
                    "Secret Base",
                    "Beach Club",
                    "Mountain Top",
                    "University",
                    "Toy Store",
                ],
            },
        ),
        (
            3,
            {
                "basic_set": "Rainbow",
                "beach_cup": True,
                "winter_park": "normal",
                "additional_sets": [
                    "Fairytale Forest",
                    "Beach Club",
                    "Castle",
                    "University",
                    "Toy Store",
                ],
            },
        ),
        (6, {"winter_park": "all", "robot_difficulty": 5}),
        (5, {"winter_park": "normal", "robot_difficulty": 3}),
        (1, {"solo_challenge": True, "robot_difficulty": 4, "winter_park": "normal"}),
        (
            2,
            {
                "basic_set": "Rainbow",
                "beach_cup": True,
                "winter_park": "all",
                "additional_sets": [
                    "Outer Space",
                    "Beach Club",
                    "Fairytale Forest",
                    "Toy Store",
                    "Secret Base",
                ],
            },
        ),
    ],
)
def test_beach_cup_and_winter_park_tournaments_end_with_a_winner(
    catalogue: Any, seats: int, options: dict[str, Any]
) -> None:
    host = play_to_the_end(seats=seats, seed=seats * 11, **options)
    tournament = Tournament.objects.get(pk=host.get()["id"])
    check_accounting(tournament)
    assert tournament.winners
    check_winter_parks(tournament, options.get("winter_park", "off"))


def check_winter_parks(tournament: Tournament, mode: str) -> None:
    """Winter "all": every match in a Winter Park; "normal": one park a round; the Final too."""
    matches = Match.objects.filter(tournament=tournament)
    for round_number in range(1, 8):
        kinds = list(matches.filter(round=round_number).values_list("kind", flat=True))
        if not kinds:  # a 1-2 seat game that ended early on an 11-fan lead
            continue
        winter = kinds.count("winter")
        expected = {"all": len(kinds), "normal": 1, "off": 0}[mode]
        assert winter == expected, (round_number, kinds)
    final = matches.filter(round=8).first()
    if final is not None:
        assert final.kind == ("normal" if mode == "off" else "winter")


def test_two_humans_and_bots_play_to_the_end(catalogue: Any) -> None:
    host = play_to_the_end(seats=4, humans=2, seed=5)
    assert host.get()["status"] == "finished"
