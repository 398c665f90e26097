"""The public API takes seat tokens only: no password (Basic) oracle, no admin session."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.test_rest_bad_input import coded
from tests.tournaments.play import create

pytestmark = pytest.mark.django_db

PASSWORD = "the-right-password-42"


@pytest.fixture
def admin(db: None) -> User:
    return User.objects.create_superuser("admin", "admin@example.com", PASSWORD)


def basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


@pytest.mark.parametrize(
    "path", ["/api/v1/card-sets/", "/api/v1/cards/", "/api/v1/tournaments/1/", "/api/v1/health/"]
)
def test_the_right_and_a_wrong_password_get_the_same_answer(
    admin: User, catalogue: Any, path: str
) -> None:
    right = APIClient().get(path, headers=basic("admin", PASSWORD))
    wrong = APIClient().get(path, headers=basic("admin", "guess"))
    nobody = APIClient().get(path, headers=basic("nobody", "guess"))
    assert right.status_code == wrong.status_code == nobody.status_code
    assert right.content == wrong.content == nobody.content
    if right.status_code >= 400:
        coded(right, right.status_code, right.json()["code"])


def test_a_password_is_refused_as_a_bad_token_on_the_catalogue(admin: User, catalogue: Any) -> None:
    response = APIClient().get("/api/v1/card-sets/", headers=basic("admin", PASSWORD))
    coded(response, 401, "bad_token")
    assert APIClient().get("/api/v1/card-sets/").status_code == 200


def test_an_admin_session_reaches_the_api_as_a_spectator(admin: User, catalogue: Any) -> None:
    client = APIClient()
    client.force_login(admin)
    assert client.get("/api/v1/card-sets/").json() == APIClient().get("/api/v1/card-sets/").json()
    ticket = create(APIClient(), seats=2)
    refused = client.post(f"/api/v1/tournaments/{ticket['id']}/start/")
    coded(refused, 403, "host_only")


def test_a_seat_token_is_still_welcome(catalogue: Any) -> None:
    ticket = create(APIClient(), seats=2)
    token = {"Authorization": f"Bearer {ticket['seat']['token']}"}
    assert APIClient().get("/api/v1/card-sets/", headers=token).status_code == 200
    unknown = APIClient().get("/api/v1/card-sets/", headers={"Authorization": "Bearer nope"})
    coded(unknown, 401, "bad_token")
