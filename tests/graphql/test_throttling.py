"""Mutations are throttled as their REST views are, from the same budget per client address."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.api.test_throttling import rates
from tests.graphql.client import TICKET, GraphQL, mutate, payload
from tests.graphql.leagues import mutate as league_mutate
from tests.leagues.helpers import create_organizer, league_with_season

pytestmark = pytest.mark.django_db


def create() -> dict[str, Any]:
    return payload(GraphQL(), "createTournament", TICKET, seats=3, name="Ann")


def retry_after(refused: dict[str, Any]) -> int:
    (error,) = refused["errors"]
    assert error["code"] == "throttled", error
    (fact,) = error["details"]
    assert fact["name"] == "retry_after"
    return int(fact["value"])


def test_creating_past_the_rate_through_either_transport_is_throttled(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, create="2/min")
    assert create()["errors"] == []
    body = {"name": "Bob", "seats": 3}
    assert APIClient().post("/api/v1/tournaments/", body, format="json").status_code == 201
    before = everything()
    refused = create()
    assert everything() == before
    assert refused["ticket"] is None and 0 < retry_after(refused) <= 60


def test_actions_past_the_rate_are_throttled(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, action="1/hour")
    ticket = create()["ticket"]
    seat = GraphQL(f"Bearer {ticket['token']}")
    assert mutate(seat, "addBots", tournamentId=ticket["id"], count=1)["errors"] == []
    before = everything()
    refused = mutate(seat, "addBots", tournamentId=ticket["id"], count=1)
    assert everything() == before
    assert retry_after(refused) > 0
    query = "query($id: Int!) { tournament(id: $id) { status } }"
    assert seat.data(query, id=ticket["id"])["tournament"]["status"] == "LOBBY"  # reads are free


def test_league_claims_and_joins_share_the_join_budget_with_rest(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    """``claimMember`` is throttled as ``POST …/members/claim/`` (the join scope), from the same
    budget; the league organizers' other writes are not throttled, as in REST."""
    rates(settings, join="1/min")
    client, token = APIClient(), create_organizer("org")
    slug, _ = league_with_season(client, token)
    path = f"/api/v1/leagues/{slug}/members/claim/"
    assert client.post(path, {"claim_code": "nope"}, format="json").status_code == 403
    refused = league_mutate(GraphQL(), "claimMember", slug=slug, claimCode="nope")
    assert retry_after(refused) > 0
    organizer = GraphQL(f"Token {token}")
    for handle in ("ann", "bob"):
        created = league_mutate(organizer, "createMember", slug=slug, handle=handle)
        assert created["errors"] == [] and created["member"]["member"] == handle
    assert client.post(path, {"claim_code": "nope"}, format="json").status_code == 429
