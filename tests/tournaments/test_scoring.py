"""Scoring rules of rules.md §2.5 and §3 through the services: the lead, the Robot's trophies."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.play import Player, open_game, play_to_the_end
from tournaments.models import Seat, SeatKind, Tournament, TournamentEvent, Trophy
from tournaments.rules.setups import flag_holder
from tournaments.services.match_setups import kept_trophies_by_seat

pytestmark = pytest.mark.django_db(transaction=True)


def two_humans(seed: int) -> tuple[Player, Player]:
    host, guest = open_game(seats=2, humans=2, seed=seed)
    return host, guest


def test_an_eleven_fan_lead_after_a_match_phase_wins_at_once(catalogue: Any) -> None:
    host, guest = two_humans(seed=4)
    Seat.objects.filter(tournament_id=host.id, number=1).update(tokens=30)
    while host.get()["status"] == "deck":
        assert host.act() or guest.act()
    view = host.get()
    assert (view["status"], view["round"], view["winners"]) == ("finished", 1, [1])


def test_without_a_lead_the_game_goes_on_to_the_next_round(catalogue: Any) -> None:
    host, guest = two_humans(seed=4)
    while host.get()["round"] == 1:
        assert host.act() or guest.act()
    view = host.get()
    assert view["status"] == "deck" and view["round"] == 2
    assert all(t["fans"] is not None for t in view["trophies"])  # 1-2 seats: face up


def first_holder(tournament: Tournament, a: Seat, b: Seat) -> str | None:
    """Who holds the flag first between ``a`` and ``b``, as a match's setup decides it."""
    won = kept_trophies_by_seat(tournament)
    return flag_holder(tournament.round, won.get(a.pk, []), won.get(b.pk, []))


def test_the_holder_of_the_highest_round_trophy_holds_the_flag_first(catalogue: Any) -> None:
    host, _ = two_humans(seed=4)
    tournament = Tournament.objects.get(pk=host.id)
    a, b = Seat.objects.filter(tournament=tournament).order_by("number")
    tournament.round = 3
    assert first_holder(tournament, a, b) is None
    Trophy.objects.filter(tournament=tournament, round=1).update(winner=a)
    assert first_holder(tournament, a, b) == "A"
    Trophy.objects.filter(tournament=tournament, round=2).update(winner=b)
    assert first_holder(tournament, a, b) == "B"
    tournament.round = 1
    assert first_holder(tournament, a, b) is None  # round 1: a flag toss


@pytest.mark.parametrize("seats", [3, 5])
def test_the_robot_sends_its_trophies_to_the_box_and_never_plays_the_final(
    catalogue: Any, seats: int
) -> None:
    host = play_to_the_end(seats=seats, seed=100 + seats, robot_difficulty=5)
    tournament = Tournament.objects.get(pk=host.id)
    robot_trophies = Trophy.objects.filter(tournament=tournament, winner__kind=SeatKind.ROBOT)
    assert robot_trophies.exists()
    assert not robot_trophies.filter(to_box=False).exists()
    assert -1 not in tournament.finalists
    assert all(s["seat"] != -1 for s in host.get()["standings"])


def test_a_solo_robot_keeps_its_trophies(catalogue: Any) -> None:
    host = play_to_the_end(seats=1, seed=2, robot_difficulty=5)
    tournament = Tournament.objects.get(pk=host.id)
    kept = Trophy.objects.filter(tournament=tournament, winner__kind=SeatKind.ROBOT, to_box=False)
    assert kept.exists()
    assert {s["seat"] for s in host.get()["standings"]} == {0, -1}


def test_a_solo_robot_that_leads_by_eleven_wins(catalogue: Any) -> None:
    (host,) = open_game(seats=1, seed=9)
    Seat.objects.filter(tournament_id=host.id, kind=SeatKind.ROBOT).update(tokens=30)
    while host.act():
        pass
    view = host.get()
    assert (view["status"], view["winners"]) == ("finished", [-1])


def test_all_trophies_are_revealed_after_round_seven_before_the_final(catalogue: Any) -> None:
    (host,) = open_game(seats=3, seed=17)
    while host.get()["round"] < 8:
        assert host.act() or host.get()["round"] == 8
    spectator = host.client.get(f"/api/v1/tournaments/{host.id}/").json()
    assert spectator["status"] != "finished" and spectator["finalists"]
    assert spectator["trophies"] and all(t["fans"] is not None for t in spectator["trophies"])
    assert all(s["fans_complete"] for s in spectator["standings"])
    frames = TournamentEvent.objects.filter(tournament_id=host.id, kind="round_finished")
    last = frames.order_by("-seq").first()
    assert last is not None and last.payload["round"] == 7
    assert all(s["fans_complete"] for s in last.payload["standings"])
    before = frames.get(payload__round=6).payload["standings"]
    assert not all(s["fans_complete"] for s in before)
