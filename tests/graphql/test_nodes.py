"""Tournaments and matches are ``Node`` s: a global ``id``, and ``node(id:)`` answers the object
as ``tournament(id:)`` or ``match(id:)`` would for the same caller; an id the server did not
make is ``invalid``, an object that is not there ``not_found``."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.graphql.client import GraphQL

pytestmark = pytest.mark.django_db

NODE = """query($id: ID!) { node(id: $id) { __typename id
  ... on TournamentView { databaseId status you { seat } }
  ... on MatchView { databaseId matchStatus: status } } }"""


def gid(kind: str, number: Any) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def test_a_tournament_is_found_by_its_global_id_as_its_caller_sees_it(catalogue: Any) -> None:
    ticket = APIClient().post("/api/v1/tournaments/", {"name": "A", "seats": 2}, format="json")
    tid, token = ticket.json()["id"], ticket.json()["seat"]["token"]
    seat = GraphQL(f"Bearer {token}")
    query = "query($id: Int!) { tournament(id: $id) { id databaseId } }"
    found = seat.data(query, id=tid)["tournament"]
    assert found == {"id": gid("TournamentView", tid), "databaseId": tid}
    node = seat.data(NODE, id=found["id"])["node"]
    assert node == {
        "__typename": "TournamentView",
        "id": found["id"],
        "databaseId": tid,
        "status": "LOBBY",
        "you": {"seat": 0},
    }
    assert GraphQL().data(NODE, id=found["id"])["node"]["you"] is None  # a spectator's view


@pytest.mark.parametrize(
    "sent",
    ["nope", gid("TournamentView", "x"), gid("TournamentView", 0), gid("UserError", 1), ""],
)
def test_an_id_the_server_did_not_make_is_invalid(db: None, sent: str) -> None:
    body = GraphQL().post(NODE, id=sent)
    assert [e["extensions"]["code"] for e in body["errors"]] == ["invalid"]


def test_an_object_that_is_not_there_is_not_found(db: None) -> None:
    for kind in ("TournamentView", "MatchView"):
        body = GraphQL().post(NODE, id=gid(kind, 987654))
        assert [e["extensions"]["code"] for e in body["errors"]] == ["not_found"], body
