"""Organizer accounts: a token from ``manage.py create_organizer``, a bot-only tournament played
to a champion through the REST API, and the refusals of everyone else."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tournaments.models import OrganizerToken, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def create_organizer(name: str) -> str:
    out = StringIO()
    call_command("create_organizer", name, stdout=out)
    token = out.getvalue().strip()
    assert token and "\n" not in token
    return token


def org(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def call(client: APIClient, path: str, headers: dict[str, str], body: Any = None) -> Any:
    return client.post(f"/api/v1/tournaments/{path}", body or {}, format="json", headers=headers)


def organize(client: APIClient, token: str, seats: int) -> int:
    response = call(client, "", org(token), {"seats": seats})
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["seat"] is None and body["code"]
    tid: int = body["id"]
    return tid


def test_create_organizer_makes_a_user_with_the_permission_and_a_hashed_token(db: None) -> None:
    token = create_organizer("league")
    user = get_user_model().objects.get(username="league")
    assert user.has_perm("tournaments.organize") and not user.has_usable_password()
    stored = OrganizerToken.objects.get(user=user)
    assert token not in stored.token_hash
    again = create_organizer("league")  # a new token replaces the old one
    assert again != token and get_user_model().objects.filter(username="league").count() == 1
    client = APIClient()
    assert client.get("/api/v1/tournaments/", headers=org(token)).json()["code"] == "bad_token"
    assert client.get("/api/v1/tournaments/", headers=org(again)).status_code == 200


def test_an_organizer_runs_a_bot_only_tournament_to_a_champion(catalogue: Any) -> None:
    token = create_organizer("league")
    client = APIClient()
    tid = organize(client, token, seats=4)
    tournament = Tournament.objects.get(pk=tid)
    assert tournament.organizer is not None and tournament.organizer.username == "league"
    lobby = client.get(f"/api/v1/tournaments/{tid}/", headers=org(token)).json()
    assert lobby["seats"] == [] and lobby["you"] is None and lobby["code"] is None
    listed = client.get("/api/v1/tournaments/?status=lobby").json()["results"][0]
    assert (listed["id"], listed["free_seats"], listed["host"]) == (tid, 4, None)
    assert call(client, f"{tid}/bots/", org(token), {"count": 3}).status_code == 200
    assert call(client, f"{tid}/bots/", org(token), {"count": 1}).status_code == 200
    response = call(client, f"{tid}/start/", org(token))
    assert response.status_code == 200, response.json()
    view = client.get(f"/api/v1/tournaments/{tid}/").json()
    assert view["status"] == "finished", view["status"]
    assert view["winners"] and {s["kind"] for s in view["seats"] if s["number"] >= 0} == {"bot"}
    assert client.get(f"/api/v1/tournaments/{tid}/verify/").json()["ok"] is True


def test_an_organizer_cancels_and_kicks(catalogue: Any) -> None:
    token = create_organizer("league")
    client = APIClient()
    tid = organize(client, token, seats=3)
    code = Tournament.objects.get(pk=tid).code
    joined = client.post("/api/v1/tournaments/join/", {"code": code, "name": "Ann"}, format="json")
    assert joined.json()["seat"]["id"] == 0  # no host seat: the first player takes seat 0
    call(client, f"{tid}/bots/", org(token), {"count": 1})
    assert call(client, f"{tid}/kick/", org(token), {"seat": 1}).status_code == 200
    assert call(client, f"{tid}/kick/", org(token), {"seat": 0}).status_code == 200
    assert call(client, f"{tid}/cancel/", org(token)).json()["status"] == "cancelled"


def test_everyone_else_is_refused(catalogue: Any) -> None:
    token = create_organizer("league")
    rival = create_organizer("rival")
    client = APIClient()
    tid = organize(client, token, seats=2)
    code = Tournament.objects.get(pk=tid).code
    joined = client.post("/api/v1/tournaments/join/", {"code": code, "name": "Ann"}, format="json")
    seat = {"Authorization": f"Bearer {joined.json()['seat']['token']}"}
    # A user whose permission was taken away (in the admin) is no organizer any more.
    demoted = create_organizer("demoted")
    user = get_user_model().objects.get(username="demoted")
    user.user_permissions.remove(Permission.objects.get(codename="organize"))
    cases = [
        (f"{tid}/bots/", seat, {"count": 1}, 403, "host_only"),
        (f"{tid}/start/", seat, None, 403, "host_only"),
        (f"{tid}/cancel/", seat, None, 403, "host_only"),
        (f"{tid}/bots/", {}, {"count": 1}, 403, "host_only"),
        (f"{tid}/bots/", org(rival), {"count": 1}, 403, "host_only"),
        (f"{tid}/cancel/", org(rival), None, 403, "host_only"),
        (f"{tid}/bots/", org("not-a-token"), {"count": 1}, 401, "bad_token"),
        ("", org("not-a-token"), {"seats": 2}, 401, "bad_token"),
        (f"{tid}/bots/", org(demoted), {"count": 1}, 403, "not_organizer"),
        ("", org(demoted), {"seats": 2}, 403, "not_organizer"),
        ("", {}, {"seats": 2}, 400, "invalid"),  # no organizer: the host's name is required
        (f"{tid}/draft/draw/", org(token), None, 403, "seat_required"),
        (f"{tid}/leave/", org(token), None, 403, "seat_required"),
    ]
    for path, headers, body, status, code_ in cases:
        before = everything()
        response = call(client, path, headers, body)
        assert (response.status_code, response.json()["code"]) == (status, code_), path
        assert everything() == before, path
    assert Tournament.objects.count() == 1


def test_the_admin_shows_organizers_and_grants_the_permission(admin_client: Any) -> None:
    create_organizer("league")
    assert Permission.objects.filter(codename="organize").count() == 1
    page = admin_client.get("/admin/tournaments/organizertoken/")
    assert page.status_code == 200 and b"league" in page.content
    user = get_user_model().objects.get(username="league")
    form = admin_client.get(f"/admin/auth/user/{user.pk}/change/")
    assert form.status_code == 200 and b"Can run tournaments through the API" in form.content
    assert admin_client.get("/admin/tournaments/tournament/").status_code == 200
