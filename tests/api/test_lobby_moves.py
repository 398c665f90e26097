"""Leaving, kicking and cancelling through the REST API, the host's lobby actions, and every
refusal changing nothing."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus
from tests.api.snapshot import everything
from tournaments.models import Tournament, TournamentEvent
from tournaments.services import clock

pytestmark = pytest.mark.django_db


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: APIClient, seats: int = 3) -> tuple[int, str, str]:
    response = client.post("/api/v1/tournaments/", {"name": "Ann", "seats": seats}, format="json")
    assert response.status_code == 201
    body = response.json()
    return body["id"], body["code"], body["seat"]["token"]


def join(client: APIClient, code: str, name: str) -> str:
    response = client.post("/api/v1/tournaments/join/", {"code": code, "name": name}, format="json")
    assert response.status_code == 201, response.json()
    token: str = response.json()["seat"]["token"]
    return token


def post(
    client: APIClient, path: str, token: str | None, body: Any = None, status: int = 200
) -> Any:
    headers = auth(token) if token else {}
    response = client.post(
        f"/api/v1/tournaments/{path}", body or {}, format="json", headers=headers
    )
    assert response.status_code == status, response.json()
    return response.json()


def refused(
    client: APIClient, path: str, token: str | None, status: int, code: str, body: Any = None
) -> None:
    before = everything()
    assert post(client, path, token, body, status)["code"] == code
    assert everything() == before


def view(client: APIClient, tid: int, token: str | None = None) -> dict[str, Any]:
    headers = auth(token) if token else {}
    body: dict[str, Any] = client.get(f"/api/v1/tournaments/{tid}/", headers=headers).json()
    return body


def last_event(tid: int) -> TournamentEvent:
    event = TournamentEvent.objects.filter(tournament_id=tid).order_by("seq").last()
    assert event is not None
    return event


def test_the_hosts_lobby_actions(catalogue: Any) -> None:
    client = APIClient()
    tid, code, host = create(client, seats=3)
    assert view(client, tid, host)["you"]["actions"] == ["add_bots"]
    guest = join(client, code, "Bob")
    assert view(client, tid, guest)["you"]["actions"] == []
    post(client, f"{tid}/bots/", host, {"count": 1})
    assert view(client, tid, host)["you"]["actions"] == ["start"]
    post(client, f"{tid}/start/", host)
    assert "start" not in view(client, tid, host)["you"]["actions"]


def test_a_seat_leaves_and_its_seat_is_free_again(catalogue: Any) -> None:
    client = APIClient()
    tid, code, _host = create(client)
    guest = join(client, code, "Bob")
    after = post(client, f"{tid}/leave/", guest)
    assert after["you"] is None and [s["name"] for s in after["seats"]] == ["Ann"]
    assert last_event(tid).kind == "seat_left"
    assert last_event(tid).payload == {"seat": 1, "reason": "left"}
    assert client.get(f"/api/v1/tournaments/{tid}/", headers=auth(guest)).status_code == 401
    join(client, code, "Bob")  # the name and the seat are free again
    assert [s["number"] for s in view(client, tid)["seats"]] == [0, 1]


def test_leave_refusals(catalogue: Any) -> None:
    client = APIClient()
    tid, code, host = create(client, seats=2)
    other_tid, _, other_host = create(client)
    guest = join(client, code, "Bob")
    refused(client, f"{tid}/leave/", host, 409, "host_cannot_leave")
    refused(client, f"{tid}/leave/", None, 403, "seat_required")
    refused(client, f"{tid}/leave/", other_host, 403, "wrong_tournament")
    post(client, f"{tid}/start/", host)
    post(client, f"{tid}/leave/", guest)  # running: a bot plays the seat (test_dropped_seats)
    refused(client, f"{tid}/leave/", guest, 409, "already_dropped")
    refused(client, f"{tid}/leave/", host, 409, "host_cannot_leave")
    assert other_tid


def test_the_host_kicks_a_player_or_a_bot(catalogue: Any) -> None:
    client = APIClient()
    tid, code, host = create(client, seats=4)
    guest = join(client, code, "Bob")
    post(client, f"{tid}/bots/", host, {"count": 1})
    after = post(client, f"{tid}/kick/", host, {"seat": 1})
    assert [s["number"] for s in after["seats"]] == [0, 2]
    assert last_event(tid).payload == {"seat": 1, "reason": "kicked"}
    assert client.get(f"/api/v1/tournaments/{tid}/", headers=auth(guest)).status_code == 401
    post(client, f"{tid}/kick/", host, {"seat": 2})
    assert [s["number"] for s in view(client, tid)["seats"]] == [0]


def test_kick_refusals(catalogue: Any) -> None:
    client = APIClient()
    tid, code, host = create(client, seats=2)
    _, _, other_host = create(client)
    guest = join(client, code, "Bob")
    refused(client, f"{tid}/kick/", guest, 403, "host_only", {"seat": 0})
    refused(client, f"{tid}/kick/", other_host, 403, "host_only", {"seat": 1})
    refused(client, f"{tid}/kick/", None, 403, "host_only", {"seat": 1})
    refused(client, f"{tid}/kick/", host, 409, "cannot_kick_host", {"seat": 0})
    refused(client, f"{tid}/kick/", host, 404, "no_such_seat", {"seat": 5})
    refused(client, f"{tid}/kick/", host, 400, "invalid", {"seat": 8})
    refused(client, f"{tid}/kick/", host, 400, "invalid", {})
    post(client, f"{tid}/start/", host)
    refused(client, f"{tid}/kick/", host, 409, "not_in_lobby", {"seat": 1})


def assert_seed_opens(client: APIClient, tid: int, commitment: str) -> None:
    """A cancelled tournament opens the commitment it showed, in its view (to anyone) and in
    its log, just before ``tournament_cancelled``: a host cannot start, look and cancel unseen."""
    fairness = view(client, tid, None)["fairness"]
    opened = f"{fairness['revealed_seed']}:{fairness['revealed_nonce']}".encode()
    assert hashlib.sha256(opened).hexdigest() == commitment
    *_, revealed, cancelled = TournamentEvent.objects.filter(tournament_id=tid).order_by("seq")
    assert (revealed.kind, cancelled.kind) == ("seed_revealed", "tournament_cancelled")
    assert revealed.payload["seed"] == fairness["revealed_seed"]


def test_the_host_cancels_a_lobby(catalogue: Any) -> None:
    client = APIClient()
    tid, code, host = create(client)
    commitment = view(client, tid, None)["fairness"]["commitment"]
    after = post(client, f"{tid}/cancel/", host)
    assert after["status"] == "cancelled"
    assert last_event(tid).kind == "tournament_cancelled"
    assert_seed_opens(client, tid, commitment)
    refused(client, "join/", None, 409, "not_in_lobby", {"code": code, "name": "Bob"})
    refused(client, f"{tid}/bots/", host, 409, "not_in_lobby", {"count": 1})
    refused(client, f"{tid}/cancel/", host, 409, "already_over")


def test_cancelling_a_running_tournament_stops_its_clock(catalogue: Any, settings: Any) -> None:
    client = APIClient()
    tid, _, host = create(client, seats=2)
    post(client, f"{tid}/bots/", host, {"count": 1})
    post(client, f"{tid}/start/", host)
    Tournament.objects.filter(pk=tid).update(deck_deadline_seconds=5)
    assert view(client, tid, host)["status"] == "deck"
    seen = view(client, tid, None)
    assert seen["fairness"]["revealed_seed"] is None  # still playing: the seed stays shut
    after = post(client, f"{tid}/cancel/", host)
    assert after["status"] == "cancelled" and after["phase_deadline"] is None
    assert after["you"]["actions"] == []
    assert_seed_opens(client, tid, seen["fairness"]["commitment"])
    refused(client, f"{tid}/draft/draw/", host, 409, "wrong_phase")
    refused(client, f"{tid}/cancel/", host, 409, "already_over")
    before = everything()
    clock.sweep_deadlines()
    clock.tournament_tick(tournament_id=tid)
    assert everything() == before


def test_a_cancelled_match_phase_plays_nothing_more(catalogue: Any) -> None:
    from tournaments.services import matchplay

    client = APIClient()
    tid, _, host = create(client, seats=2)
    post(client, f"{tid}/bots/", host, {"count": 1})
    post(client, f"{tid}/start/", host)
    post(client, f"{tid}/cancel/", host)
    # A match a task could still hold: scheduled before the cancel, played after it.
    tournament = Tournament.objects.get(pk=tid)
    seats = list(tournament.seats.filter(number__gte=0))
    match = Match.objects.create(
        tournament=tournament,
        round=1,
        park="green",
        kind="normal",
        seat_a=seats[0],
        seat_b=seats[1],
        status=MatchStatus.SCHEDULED,
        seed=1,
        setup={},
    )
    before = everything()
    matchplay.match_play(match_id=match.pk)
    assert not matchplay.match_release(match_id=match.pk)
    assert everything() == before


def test_cancel_refusals(catalogue: Any) -> None:
    client = APIClient()
    tid, code, _host = create(client)
    _, _, other_host = create(client)
    guest = join(client, code, "Bob")
    refused(client, f"{tid}/cancel/", guest, 403, "host_only")
    refused(client, f"{tid}/cancel/", other_host, 403, "host_only")
    refused(client, f"{tid}/cancel/", None, 403, "host_only")
