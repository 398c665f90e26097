"""GET /api/v1/tournaments/: filters, pages, free seats, and never a secret."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tournaments.models import Status, Tournament

pytestmark = pytest.mark.django_db


def create(client: APIClient, seats: int, name: str = "Ann") -> tuple[int, str, str]:
    response = client.post("/api/v1/tournaments/", {"name": name, "seats": seats}, format="json")
    assert response.status_code == 201
    body = response.json()
    return body["id"], body["code"], body["seat"]["token"]


def listed(client: APIClient, query: str = "", status: int = 200) -> Any:
    response = client.get(f"/api/v1/tournaments/{query}")
    assert response.status_code == status, response.json()
    return response.json()


@pytest.fixture
def three(catalogue: Any) -> dict[str, int]:
    """A lobby of 3 with one seat taken by a guest, a running one, and a finished one."""
    client = APIClient()
    lobby, code, _ = create(client, 3)
    client.post("/api/v1/tournaments/join/", {"code": code, "name": "Bob"}, format="json")
    running, _, host = create(client, 2, "Cy")
    headers = {"Authorization": f"Bearer {host}"}
    client.post(
        f"/api/v1/tournaments/{running}/bots/", {"count": 1}, format="json", headers=headers
    )
    client.post(f"/api/v1/tournaments/{running}/start/", headers=headers)
    finished, _, _ = create(client, 1, "Di")
    Tournament.objects.filter(pk=finished).update(status=Status.FINISHED, winners=[0])
    return {"lobby": lobby, "running": running, "finished": finished}


def test_the_list_filters_by_status(three: dict[str, int]) -> None:
    client = APIClient()
    everything = listed(client)
    assert everything["count"] == 3
    assert [t["id"] for t in everything["results"]] == sorted(three.values(), reverse=True)
    for status, tid in three.items():
        page = listed(client, f"?status={status}")
        assert page["count"] == 1 and [t["id"] for t in page["results"]] == [tid]
    assert listed(client, "?status=running")["results"][0]["status"] == "deck"
    assert listed(client, "?status=cancelled")["count"] == 0


def test_a_lobby_shows_its_free_seats(three: dict[str, int]) -> None:
    items = {t["id"]: t for t in listed(APIClient())["results"]}
    lobby = items[three["lobby"]]
    assert (lobby["seat_count"], lobby["seats_taken"], lobby["free_seats"]) == (3, 2, 1)
    assert lobby["host"] == "Ann" and lobby["winners"] == []
    assert items[three["running"]]["free_seats"] is None
    assert items[three["finished"]]["winners"] == [0]


def test_nothing_secret_is_listed(three: dict[str, int]) -> None:
    client = APIClient()
    text = json.dumps(listed(client))
    for tournament in Tournament.objects.all():
        assert tournament.code not in text
        assert str(tournament.seed) not in text and tournament.seed_nonce not in text
    item = listed(client)["results"][0]
    assert not {"code", "seed", "seed_nonce", "nonce", "token", "plan"} & set(item)


def test_the_list_is_paged(three: dict[str, int]) -> None:
    client = APIClient()
    ids = sorted(three.values(), reverse=True)
    page = listed(client, "?limit=2")
    assert (page["count"], page["limit"], page["offset"]) == (3, 2, 0)
    assert [t["id"] for t in page["results"]] == ids[:2]
    assert [t["id"] for t in listed(client, "?limit=2&offset=2")["results"]] == ids[2:]
    assert listed(client, "?offset=10")["results"] == []


@pytest.mark.parametrize(
    "query", ["?status=playing", "?limit=0", "?limit=101", "?offset=-1", "?limit=x"]
)
def test_a_bad_query_is_refused(catalogue: Any, query: str) -> None:
    assert listed(APIClient(), query, status=400)["code"] == "invalid"


def test_a_bad_token_is_refused(catalogue: Any) -> None:
    response = APIClient().get("/api/v1/tournaments/", headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401 and response.json()["code"] == "bad_token"
