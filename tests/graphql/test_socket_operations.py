"""Queries and mutations over the GraphQL socket (graphql-transport-ws) run as over HTTP, and
every refusal on it is coded: an operation's as an ``error`` message (the socket stays open),
a message the server cannot read as a ``4400`` close whose reason starts with the code."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from apikit.graphql import MAX_BODY_BYTES
from apikit.graphql_limits import MAX_ALIASES
from server.asgi import application
from server.graphql_views import MAX_OPERATIONS
from tests.api.test_throttling import rates
from tests.graphql.client import TICKET, GraphQL, create
from tests.graphql.socket import open_socket
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

CREATE = (
    f'mutation {{ result: createTournament(input: {{seats: 2, name: "Host"}}) {{ {TICKET} }} }}'
)


async def acked(authorization: str | None = None) -> WebsocketCommunicator:
    socket = await open_socket(authorization)
    ack = await socket.receive_json_from(timeout=5)
    assert ack["type"] == "connection_ack", ack
    return socket


async def send(socket: WebsocketCommunicator, sub: str, query: str, **variables: Any) -> None:
    payload = {"query": query, "variables": variables}
    await socket.send_json_to({"id": sub, "type": "subscribe", "payload": payload})


async def answer(socket: WebsocketCommunicator) -> list[dict[str, Any]]:
    """The messages of one operation, up to its ``complete`` or ``error``."""
    got = [await socket.receive_json_from(timeout=10)]
    while got[-1]["type"] == "next":
        got.append(await socket.receive_json_from(timeout=10))
    return got


def codes(message: dict[str, Any]) -> list[str]:
    assert message["type"] == "error", message
    return [error["extensions"]["code"] for error in message["payload"]]


async def closed_with(socket: WebsocketCommunicator) -> tuple[int, str]:
    output = await socket.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    return output["code"], output["reason"]


async def test_a_query_answers_its_data_then_completes(catalogue: Any) -> None:
    socket = await acked()
    await send(
        socket,
        "q",
        "query($n: Int!) { cards(first: $n) { totalCount edges { node { name } } } }",
        n=2,
    )
    got = await answer(socket)
    await socket.disconnect()
    assert [m["type"] for m in got] == ["next", "complete"]
    cards = got[0]["payload"]["data"]["cards"]
    assert len(cards["edges"]) == 2 and cards["totalCount"] > 2


async def test_a_mutation_creates_a_tournament(catalogue: Any) -> None:
    socket = await acked()
    await send(socket, "m", CREATE)
    got = await answer(socket)
    await socket.disconnect()
    made = got[0]["payload"]["data"]["result"]
    assert made["errors"] == [], made
    ticket = made["ticket"]
    assert await Tournament.objects.filter(id=ticket["id"]).aexists()


async def test_mutations_on_the_socket_are_throttled_as_over_http(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, create="1/min")
    socket = await acked()
    await send(socket, "1", CREATE)
    first = (await answer(socket))[0]["payload"]["data"]["result"]
    await send(socket, "2", CREATE)
    second = (await answer(socket))[0]["payload"]["data"]["result"]
    await socket.disconnect()
    assert first["errors"] == [] and first["ticket"]
    assert second["ticket"] is None and second["errors"][0]["code"] == "throttled", second
    assert await Tournament.objects.acount() == 1


async def test_a_refusal_of_a_field_comes_in_next_with_its_code(db: None) -> None:
    socket = await acked()
    await send(socket, "r", '{ cards(set: "Nowhere") { totalCount } }')
    got = await answer(socket)
    await socket.disconnect()
    assert got[0]["type"] == "next"
    assert [e["extensions"]["code"] for e in got[0]["payload"]["errors"]] == ["unknown_set"]


@pytest.mark.parametrize(
    ("query", "variables", "code"),
    [
        ("{ tournaments {", {}, "invalid_query"),
        ("{ nope }", {}, "invalid_query"),
        ("query($id: Int!) { tournament(id: $id) { status } }", {"id": "x"}, "invalid_variables"),
        ("query($id: Int!) { tournament(id: $id) { status } }", {"id": 2**40}, "invalid_variables"),
        (
            " ".join(
                ["{"] + [f"a{n}: cards(first: 100) {{ totalCount }}" for n in range(15)] + ["}"]
            ),
            {},
            "query_too_costly",
        ),
    ],
)
async def test_an_operation_refused_before_it_runs_gets_a_coded_error_and_the_socket_stays(
    db: None, query: str, variables: dict[str, Any], code: str
) -> None:
    socket = await acked()
    await send(socket, "bad", query, **variables)
    assert codes(await socket.receive_json_from(timeout=5)) == [code]
    await send(socket, "good", "{ __typename }")
    got = await answer(socket)
    await socket.disconnect()
    assert got[0]["payload"] == {"data": {"__typename": "Query"}}


async def test_an_unknown_operation_name_is_invalid_query(db: None) -> None:
    socket = await acked()
    payload = {"query": "query A { __typename }", "operationName": "B"}
    await socket.send_json_to({"id": "1", "type": "subscribe", "payload": payload})
    assert codes(await socket.receive_json_from(timeout=5)) == ["invalid_query"]
    await socket.disconnect()


@pytest.mark.parametrize("count", [MAX_ALIASES + 1, 1000])
async def test_a_subscription_of_too_many_aliases_is_refused_with_a_code(
    db: None, count: int
) -> None:
    fields = " ".join(
        f"a{n}: tournamentEvents(tournamentId: 1, after: 0) {{ seq }}" for n in range(count)
    )
    socket = await acked()
    await send(socket, "1", f"subscription {{ {fields} }}")
    found = codes(await socket.receive_json_from(timeout=10))
    await socket.disconnect()
    assert found and set(found) <= {"too_many_aliases", "too_many_tokens", "invalid_query"}
    assert {"too_many_aliases", "too_many_tokens"} & set(found)


@pytest.mark.parametrize(
    "payload",
    [None, [], {"query": 5}, {"query": "{ __typename }", "variables": [1]}],
)
async def test_a_malformed_subscribe_payload_is_invalid(db: None, payload: Any) -> None:
    socket = await acked()
    await socket.send_json_to({"id": "1", "type": "subscribe", "payload": payload})
    assert codes(await socket.receive_json_from(timeout=5)) == ["invalid"]
    await socket.disconnect()


async def test_a_message_over_the_size_limit_closes_the_socket_with_its_code(db: None) -> None:
    socket = await acked()
    await socket.send_to(text_data='{"type": "ping", "payload": "%s"}' % ("x" * MAX_BODY_BYTES))
    code, reason = await closed_with(socket)
    assert code == 4400 and reason.startswith("too_large:")


async def test_operations_past_the_limit_of_one_socket_are_refused_with_a_code(
    catalogue: Any,
) -> None:
    ticket = await database_sync_to_async(create)(GraphQL(), seats=2)
    query = "subscription($id: Int!) { tournamentEvents(tournamentId: $id, after: 0) { seq } }"
    socket = await acked()
    for n in range(MAX_OPERATIONS):
        await send(socket, f"s{n}", query, id=ticket["id"])
    await send(socket, "one-too-many", query, id=ticket["id"])
    got = [await socket.receive_json_from(timeout=10)]
    while got[-1].get("id") != "one-too-many":  # the others' events may come first
        got.append(await socket.receive_json_from(timeout=10))
    refused = got[-1]
    await socket.disconnect()
    assert all(m["type"] == "next" for m in got[:-1]), got  # the others run on
    assert refused["id"] == "one-too-many" and codes(refused) == ["too_many_operations"]


async def test_a_message_nested_too_deep_closes_the_socket_with_its_code(db: None) -> None:
    socket = await acked()
    await socket.send_to(text_data='{"type": "ping", "payload": %s}' % ("[" * 5000 + "]" * 5000))
    code, reason = await closed_with(socket)
    assert code == 4400 and reason.startswith("too_deep:")


@pytest.mark.parametrize(
    ("text", "code"), [("{nope", "parse_error"), ("[1, 2]", "invalid"), ('{"type": 5}', "invalid")]
)
async def test_a_message_the_server_cannot_read_closes_with_its_code(
    db: None, text: str, code: str
) -> None:
    socket = await acked()
    await socket.send_to(text_data=text)
    closed, reason = await closed_with(socket)
    assert closed == 4400 and reason.startswith(f"{code}:"), reason


async def test_the_legacy_graphql_ws_protocol_is_not_served(db: None) -> None:
    socket = WebsocketCommunicator(application, "/ws/graphql/", subprotocols=["graphql-ws"])
    connected, _ = await socket.connect()
    if connected:  # accepted without a subprotocol, then closed
        code, _ = await closed_with(socket)
        assert code == 4406
