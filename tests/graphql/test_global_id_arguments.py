"""Every query and subscription argument naming an object takes its global ``ID`` (issue 41):
``tournament(id:)``, ``match(id:)``, ``matches(tournamentId:)``, ``standings(season:)``…

Deprecated for one release: the plain number, as a literal or a string, and a document that
still declares its variable ``Int!`` (graphql-core refuses an ``Int`` variable in an ``ID``
position; ``apikit.global_ids.NumberVariablesRule`` lets it through, as an ``Int`` literal is).
A global id of another type is ``invalid`` naming the argument."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async

from server.schema import schema
from tests.graphql.client import GraphQL, create
from tests.graphql.socket import open_socket, subscribe

pytestmark = pytest.mark.django_db(transaction=True)

VIEW = "query($id: ID!) { tournament(id: $id) { databaseId status } }"


def gid(kind: str, number: int | str) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body["errors"]]


def test_no_query_or_subscription_argument_takes_an_object_as_a_plain_int() -> None:
    """What is left an ``Int`` is a page size, a seq or a count, never an object's number."""
    text = str(schema)
    roots = re.findall(r"^type (?:Query|Subscription) \{.*?^\}", text, re.M | re.S)
    named = re.compile(r"^\s+(id|tournamentId|matchId|tournament|season|match): (\w+)", re.M)
    kinds = {kind for body in roots for _name, kind in named.findall(body)}
    assert kinds == {"ID"}


def test_a_tournament_and_its_matches_are_read_by_global_id(catalogue: Any) -> None:
    ticket = create(GraphQL(), seats=2)
    number, gql = ticket["id"], GraphQL(f"Bearer {ticket['token']}")
    for kind in ("TournamentView", "TournamentListItem"):
        found = gql.data(VIEW, id=gid(kind, number))["tournament"]
        assert found == {"databaseId": number, "status": "LOBBY"}
    query = "query($id: ID!) { matches(tournamentId: $id) { totalCount } }"
    assert gql.data(query, id=gid("TournamentView", number))["matches"]["totalCount"] == 0


def test_the_number_still_works_as_a_literal_a_string_or_an_int_variable(catalogue: Any) -> None:
    number = create(GraphQL(), seats=2)["id"]
    gql = GraphQL()
    literal = gql.data(f"{{ tournament(id: {number}) {{ databaseId }} }}")
    assert literal["tournament"]["databaseId"] == number
    assert gql.data(VIEW, id=str(number))["tournament"]["databaseId"] == number
    old = "query($id: Int!) { tournament(id: $id) { databaseId } }"
    assert gql.data(old, id=number)["tournament"]["databaseId"] == number


def test_only_an_int_variable_is_let_into_an_id_argument(catalogue: Any) -> None:
    """A nullable ``Int`` for an ``ID!`` and a ``String!`` for an ``ID`` stay refused."""
    number = create(GraphQL(), seats=2)["id"]
    nullable = "query($id: Int) { matches(tournamentId: $id) { totalCount } }"
    text = "query($id: String!) { tournament(id: $id) { databaseId } }"
    for query, value in ((nullable, number), (text, str(number))):
        body = GraphQL().post(query, id=value)
        assert codes(body) == ["invalid_variables"]
        assert "used in position expecting type" in body["errors"][0]["message"]


def test_a_global_id_of_another_type_is_invalid_naming_the_argument(catalogue: Any) -> None:
    number = create(GraphQL(), seats=2)["id"]
    body = GraphQL().post(VIEW, id=gid("MatchView", number))
    assert codes(body) == ["invalid"]
    assert body["errors"][0]["extensions"]["details"] == {"id": ["Not a global id of this API."]}
    query = "query($id: ID!) { tournamentLog(tournamentId: $id) { totalCount } }"
    body = GraphQL().post(query, id=gid("SeasonView", number))
    assert body["errors"][0]["extensions"]["details"] == {
        "tournamentId": ["Not a global id of this API."]
    }


async def _subscribed(query: str, variables: dict[str, Any]) -> list[dict[str, Any]]:
    """The errors the first frame of a subscription carries."""
    socket = await open_socket()
    await subscribe(socket, query, variables)
    message = await socket.receive_json_from(timeout=5)
    await socket.disconnect()
    assert message["type"] in ("error", "next"), message
    errors: list[dict[str, Any]] = (
        message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    )
    return errors


async def test_a_subscription_reads_the_tournaments_global_id(catalogue: Any) -> None:
    """The id is read before ``after`` is checked: a bad ``after`` names ``after``, a bad id
    names the id."""
    number = (await database_sync_to_async(create)(GraphQL(), seats=2))["id"]
    query = """subscription($id: ID!, $after: Int!) {
      tournamentEvents(tournamentId: $id, after: $after) { seq } }"""
    right = await _subscribed(query, {"id": gid("TournamentView", number), "after": 10**6})
    assert "`after`" in right[0]["message"]
    wrong = await _subscribed(query, {"id": gid("MatchView", number), "after": 0})
    assert wrong[0]["extensions"]["details"] == {"tournamentId": ["Not a global id of this API."]}
