"""PATCH …/seat/ moves the version like any change, privately, and is refused after the end."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.api.test_rest_bad_input import coded
from tests.tournaments.play import Player, create, play_to_the_end
from tournaments.models import Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def patch(player: Player, live: Any) -> Any:
    return player.client.patch(
        f"/api/v1/tournaments/{player.id}/seat/",
        {"answers_live": live},
        format="json",
        headers=player.headers,
    )


def version(player: Player) -> tuple[int, int]:
    tournament = Tournament.objects.get(pk=player.id)
    return tournament.version, tournament.event_seq


@pytest.fixture
def host(catalogue: Any) -> Player:
    client = APIClient()
    ticket = create(client, seats=2)
    return Player(client, ticket["id"], ticket["seat"]["token"])


def test_a_change_moves_the_version_with_a_private_event(host: Player) -> None:
    live = host.get()["you"]["answers_live"]
    (old_version, old_seq) = version(host)
    response = patch(host, not live)
    assert response.status_code == 200
    assert response.json()["you"]["answers_live"] is (not live)
    assert version(host) == (old_version + 1, old_seq + 1)
    event = TournamentEvent.objects.get(tournament_id=host.id, seq=old_seq + 1)
    assert (event.kind, event.audience) == ("seat_settings", 0)
    assert event.payload == {"seat": 0, "answers_live": not live}


def test_setting_the_value_it_has_changes_nothing(host: Player) -> None:
    live = host.get()["you"]["answers_live"]
    before = everything()
    assert patch(host, live).status_code == 200
    assert everything() == before


@pytest.mark.parametrize("body", [None, "maybe", [True], {"x": 1}])
def test_a_bad_value_is_invalid(host: Player, body: Any) -> None:
    before = everything()
    coded(patch(host, body), 400, "invalid")
    assert everything() == before


def test_a_spectator_cannot_change_a_seat(host: Player) -> None:
    before = everything()
    spectator = Player(host.client, host.id, "")
    spectator.headers = {}
    coded(patch(spectator, True), 403, "seat_required")
    assert everything() == before


@pytest.mark.django_db(transaction=True)
def test_after_the_end_the_setting_is_refused_as_wrong_phase(catalogue: Any) -> None:
    host = play_to_the_end(seats=2, seed=7)
    assert host.get()["status"] == "finished"
    live = host.get()["you"]["answers_live"]
    before = everything()
    for value in (not live, live):
        coded(patch(host, value), 409, "wrong_phase")
    assert everything() == before
