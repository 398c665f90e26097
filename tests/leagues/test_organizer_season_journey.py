"""An organizer runs a season from sign-up to closed results through the API alone: the one
admin step is approving the sign-up. Two organizers, a player who asked to join, a scoring
table set before the first result, a named tournament played by the member and bots, one by
bots alone, a correction, a closed season that refuses changes, and its export."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.leagues.helpers import (
    bot_tournament,
    correct,
    members_tournament,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.test_organizer_accounts import admin_decides, sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def approved(client: APIClient, username: str) -> str:
    """An organizer's token once the admin approved its sign-up (the one admin step)."""
    token: str = ok(sign_up(client, username))["token"]
    assert admin_decides("approve", username).status_code == 200
    return token


def joined(client: APIClient, organizer: str, handle: str) -> str:
    """A player's member token: it asks to join, an organizer accepts, it claims the member."""
    asked = ok(post(client, "leagues/tuesday/join-requests/", {"handle": handle}))
    path = f"leagues/tuesday/join-requests/{asked['id']}/accept/"
    ok(post(client, path, None, org(organizer)), 200)
    headers = {"Authorization": f"Bearer {asked['token']}"}
    mine = ok(client.get("/api/v1/leagues/tuesday/join-requests/mine/", headers=headers), 200)
    claimed = ok(post(client, "leagues/tuesday/members/claim/", {"claim_code": mine["claim_code"]}))
    token: str = claimed["token"]
    return token


def test_an_organizer_runs_a_season_from_sign_up_to_closed_results(catalogue: Any) -> None:
    client = APIClient()
    ada, bea = approved(client, "ada"), approved(client, "bea")
    ok(post(client, "leagues/", {"name": "Tuesday", "slug": "tuesday"}, org(ada)))
    ok(post(client, "leagues/tuesday/organizers/", {"username": "bea"}, org(ada)))
    base = "leagues/tuesday/seasons/"
    season = ok(post(client, base, {"name": "Spring"}, org(bea)))["id"]
    scoring = {"scoring": {"champion": 12}}
    edited = client.patch(f"/api/v1/{base}{season}/", scoring, format="json", headers=org(bea))
    assert ok(edited, 200)["scoring"]["champion"] == 12

    zoe = joined(client, bea, "Zoe")
    played = members_tournament(client, ada, "tuesday", [zoe], bots=2)
    title = {"title": "Opening night"}
    renamed = client.patch(f"/api/v1/tournaments/{played}/", title, format="json", headers=org(bea))
    assert ok(renamed, 200)["title"] == "Opening night"  # the co-organizer hosts it too
    bots_only = bot_tournament(client, bea, "tuesday", season, seats=3)

    table = f"/api/v1/leagues/tuesday/standings/?season={season}"
    standings = ok(client.get(table), 200)["rows"]
    assert "Zoe" in [row["member"] for row in standings]
    assert max(row["points"] for row in standings) >= 12  # a champion scores the new table
    rival = next(row["member"] for row in standings if row["member"] != "Zoe")
    fixed = correct(
        client,
        ada,
        "tuesday",
        kind="disqualify",
        reason="No-show",
        tournament=bots_only,
        member=rival,
    )
    ok(fixed)
    standings_after_correction = ok(client.get(table), 200)["rows"]
    assert standings_after_correction != standings

    close = ok(post(client, f"{base}{season}/close/", {"reason": "Final"}, org(bea)), 200)
    assert close["closed"] is True
    refused(
        correct(client, ada, "tuesday", kind="disqualify", reason="x", season=season, member="Zoe"),
        409,
        "season_closed",
    )
    assert ok(client.get(table), 200)["rows"] == standings_after_correction
    exported = Client().get(table + "&format=csv")
    assert exported.status_code == 200 and exported["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
    members = [row["member"] for row in standings_after_correction]
    assert [row["member"] for row in rows][: len(members)] == members
    assert "No-show" in exported.content.decode("utf-8-sig")  # the export carries the correction
