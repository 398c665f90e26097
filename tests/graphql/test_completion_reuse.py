"""A completed object reused across requests (``apikit.graphql_execution``) is the same answer
a fresh completion gives: never a changed view's old fields, never another selection's."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from apikit.graphql_execution import COMPLETIONS
from tests.graphql.client import TOURNAMENT_FIELDS, GraphQL, nodes

pytestmark = pytest.mark.django_db


def _lobby() -> dict[str, Any]:
    body = {"name": "Ann", "seats": 3, "seed": 5}
    response = APIClient().post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


def _view(gql: GraphQL, tournament_id: int, fields: str) -> dict[str, Any]:
    found: dict[str, Any] = gql.data(f"{{ tournament(id: {tournament_id}) {{ {fields} }} }}")
    return found["tournament"]


def test_a_repeated_query_is_answered_from_the_kept_completion_unchanged() -> None:
    ticket = _lobby()
    gql = GraphQL(f"Bearer {ticket['seat']['token']}")
    first = _view(gql, ticket["id"], TOURNAMENT_FIELDS)
    kept = len(COMPLETIONS.kept)
    assert _view(gql, ticket["id"], TOURNAMENT_FIELDS) == first
    assert len(COMPLETIONS.kept) == kept  # the second answer was the kept one


def test_a_changed_view_is_completed_afresh() -> None:
    ticket = _lobby()
    gql = GraphQL(f"Bearer {ticket['seat']['token']}")
    before = _view(gql, ticket["id"], "version seats { edges { node { name } } }")
    joined = APIClient().post(
        "/api/v1/tournaments/join/", {"code": ticket["code"], "name": "Bob"}, format="json"
    )
    assert joined.status_code == 201
    after = _view(gql, ticket["id"], "version seats { edges { node { name } } }")
    assert after["version"] > before["version"]
    assert [s["name"] for s in nodes(after["seats"])] == ["Ann", "Bob"]


def test_each_selection_of_the_same_view_gets_its_own_fields() -> None:
    ticket = _lobby()
    gql = GraphQL()
    found = _view(gql, ticket["id"], "databaseId status")
    assert found == {"databaseId": ticket["id"], "status": "LOBBY"}
    assert _view(gql, ticket["id"], "status round") == {"status": "LOBBY", "round": 0}
    aliased = _view(gql, ticket["id"], "state: status")
    assert aliased == {"state": "LOBBY"}


def test_a_spectator_never_gets_the_seats_kept_completion() -> None:
    ticket = _lobby()
    host = GraphQL(f"Bearer {ticket['seat']['token']}")
    seat = _view(host, ticket["id"], "roomCode you { seat }")
    assert seat["roomCode"] == ticket["code"] and seat["you"] == {"seat": 0}
    spectator = _view(GraphQL(), ticket["id"], "roomCode you { seat }")
    assert spectator == {"roomCode": None, "you": None}
