"""Tournaments, matches and seats are ``Node`` s: a global ``id``, and ``node(id:)`` answers the
object as ``tournament(id:)`` or ``match(id:)`` (or the tournament's seats) would for the same
caller; an id the server did not
make is ``invalid``, an object that is not there ``not_found``."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.graphql.client import GraphQL, edges, nodes
from tests.graphql.rest_shape import rest_shape
from tests.tournaments.play import open_game

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


SEAT_FIELDS = "number name kind isHost tokens deckSize finished autoPlayed botLevel dropped"
SEAT = (
    f"query($id: ID!) {{ node(id: $id) {{ __typename id ... on SeatView {{ {SEAT_FIELDS} }} }} }}"
)
SEATS = f"query($t: Int!) {{ tournament(id: $t) {{ seats {edges(f'id {SEAT_FIELDS}')} }} }}"
# Everything a seat's type offers: its public face. What only its owner sees (deck, display,
# turn, token) lives in the tournament's `you`, never on a seat.
PUBLIC_SEAT = {"id", *SEAT_FIELDS.split()}


@pytest.mark.django_db(transaction=True)
def test_a_seat_is_found_by_its_global_id_with_only_what_its_viewer_may_see(
    catalogue: Any,
) -> None:
    host, guest = open_game(seats=3, humans=2, seed=11)
    viewers = {"owner": host.token, "other seat": guest.token, "spectator": None}
    answers = {}
    for who, token in viewers.items():
        gql = GraphQL(None if token is None else f"Bearer {token}")
        listed = nodes(gql.data(SEATS, t=host.id)["tournament"]["seats"])
        rest = APIClient().get(f"/api/v1/tournaments/{host.id}/", headers=auth(token)).json()
        assert (
            rest_shape([{k: v for k, v in s.items() if k != "id"} for s in listed])
            == (rest["seats"])
        )
        for seat in listed:
            assert seat["id"] == gid("SeatView", f"{host.id}:{seat['number']}")
            node = gql.data(SEAT, id=seat["id"])["node"]
            assert node == {"__typename": "SeatView", **seat}, who
        answers[who] = listed
    assert answers["owner"] == answers["other seat"] == answers["spectator"]
    fields = GraphQL().data('{ __type(name: "SeatView") { fields { name } } }')["__type"]
    assert {field["name"] for field in fields["fields"]} == PUBLIC_SEAT


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        (gid("SeatView", "5"), "invalid"),  # a seat needs its tournament
        (gid("SeatView", "5:x"), "invalid"),
        (gid("SeatView", "0:1"), "invalid"),
        (gid("SeatView", "987654:0"), "not_found"),
    ],
)
def test_a_seat_id_the_server_did_not_make_is_refused(db: None, sent: str, code: str) -> None:
    body = GraphQL().post(SEAT, id=sent)
    assert [e["extensions"]["code"] for e in body["errors"]] == [code], body


def test_a_seat_number_its_tournament_lacks_is_not_found(catalogue: Any) -> None:
    ticket = APIClient().post("/api/v1/tournaments/", {"name": "A", "seats": 2}, format="json")
    body = GraphQL().post(SEAT, id=gid("SeatView", f"{ticket.json()['id']}:5"))
    assert [e["extensions"]["code"] for e in body["errors"]] == ["not_found"], body
