"""Every document is answered or refused within a fixed CPU budget, over HTTP and the socket:
documents generated from the schema (hypothesis-graphql), and shapes made to explode a walk
that follows every spread (fragment trees), or the rules and execution (alias fans, deep
nesting, directives, repeated fields). The fragment bomb is refused in under 100 ms of CPU."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import nodes, queries

from apikit import graphql_execution
from server.schema import schema
from tests.graphql.socket import open_socket

REFUSED_CPU = 0.1  # seconds: a document refused by its shape
ANSWERED_CPU = 2.0  # seconds: any document, answered (generous: a loaded machine, a cold cache)


def bomb(levels: int, spreads: int = 2) -> str:
    """``fragment Fi on Query { ...Fi+1 ...Fi+1 }``: 2^levels fields once spread."""
    fragments = [
        f"fragment F{n} on Query {{ {f' ...F{n + 1}' * spreads} }}" for n in range(1, levels)
    ]
    return f"query {{ ...F1 }} {' '.join(fragments)} fragment F{levels} on Query {{ __typename }}"


def tree(levels: int) -> str:
    """Two fragments per level, each spreading both of the next: a tree, not a chain."""
    fragments = [
        f"fragment {side}{n} on Query {{ ...A{n + 1} ...B{n + 1} }}"
        for n in range(1, levels)
        for side in "AB"
    ]
    leaves = f"fragment A{levels} on Query {{ __typename }}"
    leaves += f" fragment B{levels} on Query {{ x: __typename }}"
    return f"query {{ ...A1 ...B1 }} {' '.join(fragments)} {leaves}"


def alias_fan(spreads: int) -> str:
    """Fifteen aliases in one fragment, spread ``spreads`` times from as many fields."""
    aliases = " ".join(f"a{n}: __typename" for n in range(15))
    fields = " ".join(f"f{n}: cardSets(first: 1) {{ totalCount ...Fan }}" for n in range(spreads))
    return f"query {{ {fields} }} fragment Fan on CardSetConnection {{ {aliases} }}"


def nested(levels: int) -> str:
    return "{ " + "cards { edges { node { " * levels + "uid" + " } } }" * levels + " }"


ADVERSARIAL = {
    "fragment bomb, 20 levels": bomb(20),
    "fragment bomb, 25 levels": bomb(25),
    "fragment bomb, 30 levels": bomb(30),
    "fragment bomb, 8 levels of 10 spreads": bomb(8, 10),
    "fragment tree, 24 levels": tree(24),
    "alias fan, 1 fragment spread 14 times": alias_fan(14),
    "fields nested 60 deep": nested(20),
    "fields nested 300 deep": "{ " + "a { " * 300 + "b" + " }" * 300 + " }",
    "a list argument nested 300 deep": "{ cards(sets: "
    + "[" * 300
    + "]" * 300
    + ") { totalCount } }",
    "one field 1,500 times": "{ " + "__typename " * 1500 + "}",
    "400 directives": "{ __typename " + "@include(if: true) " * 400 + "}",
    "60 fragments": "{ __typename } "
    + " ".join(f"fragment G{n} on Query {{ __typename }}" for n in range(60)),
    "300 variables": "query(" + " ".join(f"$v{n}: Int" for n in range(300)) + ") { __typename }",
}


@contextmanager
def cpu_under(seconds: float) -> Iterator[None]:
    began = time.process_time()
    yield
    spent = time.process_time() - began
    assert spent < seconds, f"{spent:.3f} s of CPU, over {seconds} s"


@pytest.fixture(autouse=True)
def _warm(db: None) -> None:
    """A first request, unmeasured: the process's first loads its URLs, views and catalogues."""
    post("{ __typename }")


def post(query: str) -> dict[str, Any]:
    response = Client().post("/graphql/", {"query": query}, content_type="application/json")
    assert response.status_code < 500, response.content
    assert response["Content-Type"] == "application/json"
    body: dict[str, Any] = response.json()
    return body


def codes(errors: list[dict[str, Any]]) -> list[str]:
    return [error["extensions"]["code"] for error in errors]


@pytest.mark.django_db
@pytest.mark.parametrize("levels", [20, 25, 30])
def test_the_fragment_bomb_is_refused_in_under_100_ms_of_cpu(levels: int) -> None:
    query = bomb(levels)
    assert len(query) < 1300
    with cpu_under(REFUSED_CPU):
        body = post(query)
    assert "too_many_fragments" in codes(body["errors"])
    assert body.get("data") is None


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_an_adversarial_document_is_answered_or_refused_with_a_code_in_budget(name: str) -> None:
    with cpu_under(REFUSED_CPU if "bomb" in name or "tree" in name else ANSWERED_CPU):
        body = post(ADVERSARIAL[name])
    assert "data" in body or body["errors"]
    assert "server_error" not in codes(body.get("errors", []))


@pytest.mark.django_db
def test_the_introspection_query_and_the_all_fields_view_are_within_the_limits() -> None:
    from graphql import get_introspection_query

    from tests.graphql.client import TOURNAMENT_FIELDS

    assert "errors" not in post(get_introspection_query(descriptions=True))
    body = post(f"{{ tournament(id: 1) {{ {TOURNAMENT_FIELDS} }} }}")
    assert codes(body["errors"]) == ["not_found"]


# The schema's JSON scalar (REST's free-form objects) as small values.
SCALARS = {"JSON": st.one_of(st.text(max_size=8).map(nodes.String), st.just(nodes.Null))}


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=queries(schema.as_str(), custom_scalars=SCALARS))
def test_a_document_generated_from_the_schema_is_answered_in_budget(query: str) -> None:
    with cpu_under(ANSWERED_CPU):
        body = post(query)
    assert "data" in body or body["errors"]
    assert all(error["extensions"]["code"] for error in body.get("errors", []))


@pytest.mark.django_db
def test_a_query_over_its_time_budget_is_stopped_at_its_next_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(graphql_execution, "BUDGET_SECONDS", 0.0)
    body = post("{ cardSets(first: 5) { totalCount edges { node { name } } } }")
    assert codes(body["errors"]) == ["query_too_slow"]
    assert body["errors"][0]["extensions"]["details"] == {"budget_seconds": 0.0}
    assert body["data"] is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
async def test_the_socket_answers_or_refuses_each_adversarial_document_in_budget(
    name: str,
) -> None:
    socket = await open_socket()
    assert (await socket.receive_json_from(timeout=5))["type"] == "connection_ack"
    # Unmeasured: the socket's first operation starts its thread and database connection.
    await socket.send_json_to(
        {"id": "warm", "type": "subscribe", "payload": {"query": "{ __typename }"}}
    )
    assert [(await socket.receive_json_from(timeout=10))["type"] for _ in "ab"] == [
        "next",
        "complete",
    ]
    # Unmeasured too: a first refusal of each kind (its code's first run in this process; a
    # document of its own, since the refusal of the same text would come from the cache).
    for kind in ("query", "subscription"):
        refused = bomb(9).replace("query", kind, 1)  # over the fragment nesting limit of 8
        await socket.send_json_to(
            {"id": f"warm-{kind}", "type": "subscribe", "payload": {"query": refused}}
        )
        assert (await socket.receive_json_from(timeout=10))["type"] in {"next", "error"}
    budget = REFUSED_CPU if "bomb" in name or "tree" in name else ANSWERED_CPU
    for kind in ("query", "subscription"):
        query = ADVERSARIAL[name].replace("query", kind, 1)
        if not query.startswith(kind) and kind == "subscription":
            query = "subscription " + query
        payload = {"query": query}
        with cpu_under(budget):
            await socket.send_json_to({"id": kind, "type": "subscribe", "payload": payload})
            message = await socket.receive_json_from(timeout=10)
        assert message["type"] in {"next", "error"}, message
        errors = message["payload"] if message["type"] == "error" else []
        assert "server_error" not in codes(errors), errors
        if message["type"] == "next":
            await socket.receive_json_from(timeout=10)  # its complete
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_query_over_its_time_budget_is_stopped_with_a_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(graphql_execution, "BUDGET_SECONDS", 0.0)
    socket = await open_socket()
    assert (await socket.receive_json_from(timeout=5))["type"] == "connection_ack"
    payload = {"query": "{ cardSets(first: 5) { totalCount } }"}
    await socket.send_json_to({"id": "1", "type": "subscribe", "payload": payload})
    message = await socket.receive_json_from(timeout=10)
    await socket.disconnect()
    assert message["type"] == "error", message
    assert codes(message["payload"]) == ["query_too_slow"]
