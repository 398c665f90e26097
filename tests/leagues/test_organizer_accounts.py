"""Organizer accounts asked for through the API: a sign-up's token waits for an admin's approval
(the one admin step), then organizes alone; a declined one says why and stops; a bad sign-up
changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from leagues.models import OrganizerRequest
from tests.leagues.helpers import create_organizer, ok, org, post, refused
from tournaments.models import OrganizerToken

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/leagues/organizerrequest/"


def sign_up(client: APIClient, username: str, about: str = "I run the Tuesday club.") -> Any:
    return post(client, "organizers/", {"username": username, "about": about})


def me(client: APIClient, token: str) -> Any:
    return client.get("/api/v1/organizers/me/", headers=org(token))


def admin_decides(action: str, username: str, reason: str = "") -> Any:
    """A superuser selects the request in the admin's list and runs ``action`` on it."""
    users = get_user_model().objects
    staff = users.filter(username="root").first() or users.create_superuser("root", "", "pw")
    browser = Client()
    browser.force_login(staff)
    request = OrganizerRequest.objects.get(user__username=username)
    body = {"action": action, "_selected_action": [request.pk], "reason": reason}
    return browser.post(CHANGELIST, body, follow=True)


def rows() -> tuple[Any, ...]:
    users = get_user_model().objects.order_by("pk").values_list("username", "is_active")
    requests = OrganizerRequest.objects.order_by("pk").values_list("status", "reason")
    return list(users), list(requests), OrganizerToken.objects.count()


def test_a_sign_up_waits_for_an_admins_approval_then_organizes_alone() -> None:
    client = APIClient()
    made = ok(sign_up(client, "ada"))
    assert made["username"] == "ada" and made["status"] == "pending"
    token = made["token"]
    league = {"name": "Tuesday", "slug": "tuesday"}
    waiting = post(client, "leagues/", league, org(token))
    refused(waiting, 403, "not_organizer")
    assert "approval" in waiting.json()["message"]  # it says why, not only that it may not
    assert ok(me(client, token), 200)["status"] == "pending"

    page = admin_decides("approve", "ada")
    assert page.status_code == 200 and "Approved 1 request." in page.content.decode()

    account = ok(me(client, token), 200)
    assert (account["status"], account["about"]) == ("approved", "I run the Tuesday club.")
    assert account["decided_at"] is not None
    ok(post(client, "leagues/", league, org(token)))
    mine = ok(client.get("/api/v1/organizers/me/leagues/", headers=org(token)), 200)
    assert [item["slug"] for item in mine["results"]] == ["tuesday"]


def test_a_declined_sign_up_says_why_and_its_token_stops() -> None:
    client = APIClient()
    token = ok(sign_up(client, "mallory"))["token"]
    before = rows()
    page = admin_decides("decline", "mallory")  # no reason: refused, nothing changes
    assert "Give a reason to decline." in page.content.decode()
    assert rows()[1:] == before[1:]

    admin_decides("decline", "mallory", reason="Not a club we know.")
    account = ok(me(client, token), 200)
    assert (account["status"], account["reason"]) == ("declined", "Not a club we know.")
    refused(post(client, "leagues/", {"name": "X", "slug": "x"}, org(token)), 401, "bad_token")
    assert admin_decides("approve", "mallory").status_code == 200  # decided already: kept
    assert ok(me(client, token), 200)["status"] == "declined"


def test_a_bad_sign_up_is_refused_and_changes_nothing() -> None:
    client = APIClient()
    ok(sign_up(client, "Ann"))
    before = rows()
    refused(sign_up(client, "ann"), 409, "username_taken")
    refused(sign_up(client, "Ann"), 409, "username_taken")
    refused(sign_up(client, "two words"), 400, "invalid")
    refused(sign_up(client, "bob", about=""), 400, "invalid")
    body = {"username": "bob", "about": "x", "password": "hunter2"}
    refused(post(client, "organizers/", body), 400, "unknown_field")
    assert rows() == before


def test_an_account_is_read_with_its_own_token_only() -> None:
    client = APIClient()
    refused(client.get("/api/v1/organizers/me/"), 401, "bad_token")
    refused(me(client, "nope"), 401, "bad_token")
    headers = {"Authorization": "Bearer nope"}
    refused(client.get("/api/v1/organizers/me/", headers=headers), 401, "bad_token")
    # An organizer made by `manage.py create_organizer` has no request: approved all the same.
    account = ok(me(client, create_organizer("old")), 200)
    assert (account["status"], account["requested_at"]) == ("approved", None)
