"""A league driven through the REST API alone, as an organizer would."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management import call_command
from rest_framework.test import APIClient


def create_organizer(name: str) -> str:
    out = StringIO()
    call_command("create_organizer", name, stdout=out)
    return out.getvalue().strip()


def org(token: str) -> dict[str, str]:
    return {"Authorization": f"Token {token}"}


def post(client: APIClient, path: str, body: Any = None, headers: Any = None) -> Any:
    return client.post(f"/api/v1/{path}", body or {}, format="json", headers=headers or {})


def ok(response: Any, status: int = 201) -> Any:
    assert response.status_code == status, response.content
    return response.json()


def refused(response: Any, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.content


def league_with_season(
    client: APIClient, token: str, slug: str = "club", public: bool = True, **season: Any
) -> tuple[str, int]:
    league = {"name": slug.title(), "slug": slug, "public": public}
    ok(post(client, "leagues/", league, org(token)))
    created = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Spring", **season}, org(token)))
    return slug, created["id"]


def bot_tournament(client: APIClient, token: str, slug: str, season: int, seats: int) -> int:
    """An organizer's season tournament of bots only, played to its end (tasks run in process)."""
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid: int = ok(post(client, path, {"seats": seats}, org(token)))["id"]
    ok(post(client, f"tournaments/{tid}/bots/", {"count": seats}, org(token)), 200)
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
    return tid
