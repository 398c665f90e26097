"""Seats acting at the same instant on PostgreSQL leave a consistent tournament."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from matches.models import Match
from tests.tournaments.play import Player, all_uids, card_locations, open_game
from tournaments.models import DraftTurn, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
    ),
]


def four_humans() -> list[Player]:
    return open_game(seats=4, humans=4, seed=21)


def run_together(players: list[Player], step: Any) -> list[BaseException]:
    """Run ``step(player)`` in one thread per player, released at the same instant."""
    barrier = threading.Barrier(len(players))
    errors: list[BaseException] = []

    def work(player: Player) -> None:
        try:
            barrier.wait()
            step(player)
        except BaseException as error:  # reported to the test below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=work, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return errors


def test_simultaneous_draws_never_share_a_card_and_the_phase_closes_once(catalogue: Any) -> None:
    players = four_humans()
    assert not run_together(players, lambda p: p.post("draft/draw"))
    displays = [tuple(c["uid"] for c in p.get()["you"]["turn"]["display"]) for p in players]
    flat = [uid for display in displays for uid in display]
    assert len(flat) == len(set(flat)) == 20

    def pick_and_finish(player: Player) -> None:
        display = player.get()["you"]["turn"]["display"]
        player.post("draft/pick", {"card": display[0]["uid"]})
        player.post("draft/pick", {"card": display[1]["uid"]})
        player.post("deck/finish")

    assert not run_together(players, pick_and_finish)
    tournament = Tournament.objects.get(pk=players[0].id)
    assert (
        DraftTurn.objects.filter(seat__tournament=tournament, round=1, finished=True).count() == 4
    )
    assert Match.objects.filter(tournament=tournament, round=1).count() == 2
    assert tournament.round == 2
    assert card_locations(tournament) == all_uids(tournament)


def test_a_double_finish_at_the_same_instant_counts_once(catalogue: Any) -> None:
    players = four_humans()
    for player in players:
        display = player.post("draft/draw")["you"]["turn"]["display"]
        player.post("draft/pick", {"card": display[0]["uid"]})
        player.post("draft/pick", {"card": display[1]["uid"]})
    host_twice = [
        players[0],
        Player(APIClient(), players[0].id, players[0].token),
    ]
    statuses: list[int] = []

    def finish(player: Player) -> None:
        response = player.client.post(
            f"/api/v1/tournaments/{player.id}/deck/finish/",
            {},
            format="json",
            headers=player.headers,
        )
        statuses.append(response.status_code)

    assert not run_together(host_twice, finish)
    assert sorted(statuses) == [200, 409]
