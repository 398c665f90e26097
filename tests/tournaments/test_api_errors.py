"""Every refused action gets a 4xx with a stable code, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.play import Player, create, open_game
from tournaments.models import DraftTurn, Pile, Seat, Tournament

pytestmark = pytest.mark.django_db


def snapshot(tournament_id: int) -> tuple[Any, ...]:
    """Everything a refused action must leave unchanged."""
    tournament = Tournament.objects.get(pk=tournament_id)
    seats = [
        (s.number, tuple(s.deck), s.tokens) for s in Seat.objects.filter(tournament=tournament)
    ]
    piles = [
        (p.level, tuple(p.cards), tuple(p.discard))
        for p in Pile.objects.filter(tournament=tournament)
    ]
    turns = [
        (t.seat_id, str(t.state)) for t in DraftTurn.objects.filter(seat__tournament=tournament)
    ]
    return (tournament.status, tournament.round, tournament.version, seats, piles, turns)


@pytest.fixture
def game(catalogue: Any) -> tuple[Player, Player]:
    """A started two-seat game with two humans, in round 1's Deck Phase."""
    host, guest = open_game(seats=2, humans=2, seed=42, live=True)
    return host, guest


def refused(player: Player, path: str, body: dict[str, Any] | None, status: int, code: str) -> None:
    before = snapshot(player.id)
    answer = player.post(path, body, status=status)
    assert answer["code"] == code and answer["message"]
    assert snapshot(player.id) == before


def test_picking_before_drawing_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    refused(host, "draft/pick", {"card": 1}, 409, "draw_first")


def test_a_card_not_in_the_display_is_refused(game: tuple[Player, Player]) -> None:
    host, guest = game
    host.post("draft/draw")
    others = guest.post("draft/draw")["you"]["turn"]["display"]
    refused(host, "draft/pick", {"card": others[0]["uid"]}, 409, "not_in_display")


def test_a_second_redraw_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    host.post("draft/draw")
    host.post("draft/redraw")
    refused(host, "draft/redraw", None, 409, "redraw_used")


def test_a_stale_version_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    version = host.get()["you"]["version"]
    host.post("draft/draw")
    refused(host, "draft/redraw", {"version": version}, 409, "stale")


def test_another_seats_move_does_not_make_my_view_stale(game: tuple[Player, Player]) -> None:
    host, guest = game
    version = host.get()["you"]["version"]
    guest.post("draft/draw")
    host.post("draft/draw", {"version": version})


def test_a_repeated_pick_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    card = host.post("draft/draw")["you"]["turn"]["display"][0]["uid"]
    host.post("draft/pick", {"card": card})
    refused(host, "draft/pick", {"card": card}, 409, "not_in_display")


def test_choosing_in_a_round_without_a_choice_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    refused(host, "draft/choose", {"option": 0}, 409, "no_choice")


def test_a_spectator_cannot_act(game: tuple[Player, Player]) -> None:
    host, _ = game
    spectator = Player(host.client, host.id, "")
    spectator.headers = {}
    refused(spectator, "draft/draw", None, 403, "seat_required")


def test_an_unknown_token_is_refused(game: tuple[Player, Player]) -> None:
    host, _ = game
    impostor = Player(host.client, host.id, "not-a-token")
    refused(impostor, "draft/draw", None, 401, "bad_token")


def test_another_tournaments_seat_cannot_act_here(
    game: tuple[Player, Player], catalogue: Any
) -> None:
    host, _ = game
    other = create(host.client, seats=2, seed=1)
    stranger = Player(host.client, host.id, other["seat"]["token"])
    refused(stranger, "draft/draw", None, 403, "wrong_tournament")


def test_a_guest_cannot_add_bots_or_start(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client, seats=3, seed=3)
    joined = client.post(
        "/api/v1/tournaments/join/", {"code": ticket["code"], "name": "Guest"}, format="json"
    )
    guest = Player(client, ticket["id"], joined.json()["seat"]["token"])
    refused(guest, "bots", {"count": 1}, 403, "host_only")
    refused(guest, "start", None, 403, "host_only")


def test_starting_with_open_seats_or_too_many_bots_is_refused(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client, seats=3, seed=3)
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    refused(host, "start", None, 409, "seats_open")
    refused(host, "bots", {"count": 3}, 409, "bad_bot_count")


def test_acting_in_the_lobby_is_a_wrong_phase(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client, seats=2, seed=3)
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    refused(host, "draft/draw", None, 409, "wrong_phase")


def test_joining_a_started_or_full_game_or_with_a_bad_code_is_refused(
    game: tuple[Player, Player],
) -> None:
    host, _ = game
    code = Tournament.objects.get(pk=host.id).code
    late = host.client.post(
        "/api/v1/tournaments/join/", {"code": code, "name": "Late"}, format="json"
    )
    assert (late.status_code, late.json()["code"]) == (409, "not_in_lobby")
    wrong = host.client.post(
        "/api/v1/tournaments/join/", {"code": "ZZZZZZ", "name": "X"}, format="json"
    )
    assert (wrong.status_code, wrong.json()["code"]) == (404, "unknown_code")


def test_bad_options_are_refused_with_a_code(catalogue: Any) -> None:
    client = APIClient()
    too_few = client.post(
        "/api/v1/tournaments/",
        {"name": "H", "seats": 2, "additional_sets": ["Castle"]},
        format="json",
    )
    assert (too_few.status_code, too_few.json()["code"]) == (400, "five_sets")
    bad = client.post("/api/v1/tournaments/", {"name": "H", "seats": 9}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert not Tournament.objects.exists()


def test_an_unknown_tournament_is_not_found(catalogue: Any) -> None:
    response = APIClient().get("/api/v1/tournaments/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
