"""A person's seat that leaves a running tournament or misses two deadlines in a row is played by
a steady bot, shown to all, until its owner takes it back with its token."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.play import open_game
from tournaments import tasks
from tournaments.models import DraftTurn, Seat, Tournament, TournamentEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def seat_of(view: dict[str, Any], number: int) -> dict[str, Any]:
    return next(seat for seat in view["seats"] if seat["number"] == number)


def events(tournament_id: int, kind: str) -> list[dict[str, Any]]:
    rows = TournamentEvent.objects.filter(tournament_id=tournament_id, kind=kind)
    return [row.payload for row in rows]


def test_a_seat_that_leaves_a_running_tournament_is_played_by_a_bot_until_taken_back(
    catalogue: Any,
) -> None:
    host, guest = open_game(seats=3, humans=2, seed=21)
    view = guest.post("leave")
    assert seat_of(view, 1)["dropped"] and seat_of(view, 1)["bot_level"] == "steady"
    assert events(host.id, "seat_dropped") == [{"seat": 1, "reason": "left"}]
    assert DraftTurn.objects.get(seat__tournament_id=host.id, seat__number=1, round=1).finished
    assert guest.get()["you"]["actions"] == ["reclaim"]
    refusal = guest.post("draft/draw", status=409)
    assert refusal["code"] == "seat_dropped"
    assert guest.post("leave", status=409)["code"] == "already_dropped"
    while host.get()["round"] == 1:  # the host plays on; the bot plays the guest's seat
        assert host.act()
    assert DraftTurn.objects.get(seat__tournament_id=host.id, seat__number=1, round=2).finished
    view = guest.post("reclaim")
    assert not seat_of(view, 1)["dropped"] and seat_of(view, 1)["bot_level"] is None
    assert events(host.id, "seat_reclaimed") == [{"seat": 1}]
    assert guest.post("reclaim", status=409)["code"] == "not_dropped"
    while host.get()["round"] == 2:
        assert host.act()
    round3 = DraftTurn.objects.get(seat__tournament_id=host.id, seat__number=1, round=3)
    assert not round3.finished and guest.get()["you"]["actions"]  # the guest plays again


def miss_deadline(tournament_id: int) -> None:
    Tournament.objects.filter(pk=tournament_id).update(
        phase_deadline=timezone.now() - timedelta(seconds=1)
    )
    tasks.sweep_deadlines.delay().get()


def play_round(player: Any) -> None:
    """The player's whole Deck Phase of this round (and not a step of the next)."""
    round_number = player.get()["round"]
    while player.get()["round"] == round_number and player.get()["you"]["actions"]:
        player.act()


def test_two_missed_deadlines_in_a_row_drop_the_seat_but_one_does_not(catalogue: Any) -> None:
    host, guest = open_game(seats=3, humans=2, seed=22, deck_deadline_seconds=600)
    play_round(guest)
    miss_deadline(host.id)  # round 1: the host misses
    seat = Seat.objects.get(tournament_id=host.id, number=0)
    assert seat.missed_deadlines == 1 and not seat.dropped
    play_round(guest)
    play_round(host)  # round 2 played by its owner: the count restarts
    assert Seat.objects.get(pk=seat.pk).missed_deadlines == 0
    play_round(guest)
    miss_deadline(host.id)  # round 3
    assert not Seat.objects.get(pk=seat.pk).dropped
    play_round(guest)
    miss_deadline(host.id)  # round 4: two in a row
    seat.refresh_from_db()
    assert seat.dropped
    assert events(host.id, "seat_dropped") == [{"seat": 0, "reason": "missed_deadlines"}]
    view = host.get()
    assert view["round"] == 5 and seat_of(view, 0)["dropped"]
    assert DraftTurn.objects.get(seat=seat, round=5).finished  # its stand-in played at once
    assert view["you"]["actions"] == ["reclaim"]
