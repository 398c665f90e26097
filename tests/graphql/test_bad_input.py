"""Every bad input over HTTP gets GraphQL's ``errors`` with a code, as JSON — never Django's
HTML page, strawberry's plain text, a 500 or ``server_error`` — with DEBUG on too, and nothing
of it is logged as a bug."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.test import Client

from apikit.graphql import MAX_BODY_BYTES
from apikit.graphql_cost import MAX_COST
from infra.parsers import MAX_JSON_DEPTH
from tests.graphql.client import GraphQL

pytestmark = pytest.mark.django_db

QUERY_WITH = '{"query": "{ __typename }", "variables": VARIABLES}'
BY_ID = "query($id: Int!) { tournament(id: $id) { status } }"


@pytest.fixture(autouse=True)
def debug_on(settings: Any) -> None:
    settings.DEBUG = True  # Django's DEBUG pages are what leaked before


@pytest.fixture(autouse=True)
def no_bug_logged(caplog: pytest.LogCaptureFixture) -> Any:
    with caplog.at_level(logging.ERROR):
        yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def post(body: str | bytes, content_type: str = "application/json") -> Any:
    return Client(raise_request_exception=False).post("/graphql/", body, content_type=content_type)


def refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response.content[:300]
    body: dict[str, Any] = response.json()
    assert [e["extensions"]["code"] for e in body["errors"]] == [code], body
    return body


def test_variables_nested_deeper_than_the_json_limit_are_too_deep() -> None:
    deep = "[" * 5000 + "]" * 5000  # 10 kB: under the body limit, far past the depth limit
    refused(post(QUERY_WITH.replace("VARIABLES", f'{{"x": {deep}}}')), 400, "too_deep")
    shallow = "[" * (MAX_JSON_DEPTH - 3) + "]" * (MAX_JSON_DEPTH - 3)
    response = post(QUERY_WITH.replace("VARIABLES", f'{{"x": {shallow}}}'))
    assert response.status_code == 200 and "errors" not in response.json()


def test_ten_thousand_levels_are_too_deep() -> None:
    deep = '{"a":' * 10_000 + "1" + "}" * 10_000
    refused(post(QUERY_WITH.replace("VARIABLES", deep)), 400, "too_deep")


def test_a_3_mb_query_is_too_large_unread() -> None:
    big = json.dumps({"query": "{ __typename " + "#" * 3_000_000 + "}"})
    body = refused(post(big), 413, "too_large")
    assert body["errors"][0]["extensions"]["details"] == {"max_bytes": MAX_BODY_BYTES}


def test_a_body_that_is_not_json_is_a_parse_error() -> None:
    refused(post("{nope"), 400, "parse_error")
    refused(post(b"\xff\xfe"), 400, "parse_error")
    empty = Client().generic("POST", "/graphql/", b"", CONTENT_TYPE="application/json")
    refused(empty, 400, "parse_error")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ([{"query": "{ __typename }"}], "body"),  # a batch
        ("{ __typename }", "body"),
        ({"query": 5}, "query"),
        ({"query": "{ __typename }", "variables": [1]}, "variables"),
        ({"query": "{ __typename }", "operationName": 3}, "operationName"),
        ({"query": "{ __typename }", "extensions": "x"}, "extensions"),
        ({}, "query"),
    ],
)
def test_a_body_of_the_wrong_shape_is_invalid(body: Any, field: str) -> None:
    found = refused(post(json.dumps(body)), 400, "invalid")
    assert field in found["errors"][0]["extensions"]["details"]


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""]
)
def test_a_body_that_is_not_json_by_its_type_is_unsupported(content_type: str) -> None:
    response = post("query=%7B__typename%7D", content_type)
    refused(response, 415, "unsupported_media_type")


def test_a_mutation_over_get_is_method_not_allowed() -> None:
    response = Client().get(
        "/graphql/",
        {"query": "mutation { startTournament(input: {tournamentId: 1}) { __typename } }"},
        HTTP_ACCEPT="application/json",
    )
    refused(response, 405, "method_not_allowed")
    assert response["Allow"] == "POST"


def test_a_method_other_than_get_and_post_is_method_not_allowed() -> None:
    response = Client().put("/graphql/", "{}", content_type="application/json")
    refused(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, POST"


@pytest.mark.parametrize(
    ("variables", "code"), [("[" * 100 + "]" * 100, "too_deep"), ("{nope", "parse_error")]
)
def test_bad_variables_over_get_are_coded(variables: str, code: str) -> None:
    response = Client().get(
        "/graphql/",
        {"query": "{ __typename }", "variables": variables},
        HTTP_ACCEPT="application/json",
    )
    refused(response, 400, code)


def test_a_query_over_get_still_answers() -> None:
    response = Client().get(
        "/graphql/", {"query": "{ __typename }"}, HTTP_ACCEPT="application/json"
    )
    assert response.json() == {"data": {"__typename": "Query"}}


def test_a_subscription_over_http_is_sent_to_the_socket() -> None:
    query = "subscription { tournamentEvents(tournamentId: 1, after: 0) { seq } }"
    body = refused(post(json.dumps({"query": query})), 400, "invalid_query")
    assert "/ws/graphql/" in body["errors"][0]["message"]


def test_an_unknown_operation_name_is_invalid_query() -> None:
    body = {"query": "query A { __typename }", "operationName": "B"}
    refused(post(json.dumps(body)), 400, "invalid_query")


@pytest.mark.parametrize("value", ["x", 1.5, 2**40, None, [1], {"a": 1}])
def test_a_variable_of_the_wrong_type_is_invalid_variables(value: Any) -> None:
    response = post(json.dumps({"query": BY_ID, "variables": {"id": value}}))
    body = refused(response, 200, "invalid_variables")
    assert body["data"] is None


def test_a_missing_variable_is_invalid_variables() -> None:
    refused(post(json.dumps({"query": BY_ID})), 200, "invalid_variables")


def test_fifteen_aliases_of_a_full_card_page_cost_too_much_and_run_nothing(
    django_assert_num_queries: Any,
) -> None:
    fields = " ".join(f"a{n}: cards(first: 100) {{ totalCount }}" for n in range(15))
    with django_assert_num_queries(0):
        body = refused(post(json.dumps({"query": f"{{ {fields} }}"})), 200, "query_too_costly")
    details = body["errors"][0]["extensions"]["details"]
    assert details == {"cost": 1500, "budget": MAX_COST}


def test_a_page_given_by_a_variable_is_charged_at_its_ceiling() -> None:
    query = (
        "query($n: Int!) { a: cards(first: $n) { totalCount } b: cards(first: $n) { totalCount } }"
    )
    assert GraphQL().data(query, n=5)["a"]["totalCount"] >= 0  # 2 x 100: within the budget
    many = " ".join(f"a{n}: cards(first: $n) {{ totalCount }}" for n in range(11))
    body = GraphQL().post(f"query($n: Int!) {{ {many} }}", n=1)
    assert [e["extensions"]["code"] for e in body["errors"]] == ["query_too_costly"]


def test_pages_inside_pages_multiply() -> None:
    inner = "leagues(first: 10) { totalCount edges { node { slug } } }"
    assert "errors" not in GraphQL().post(f"{{ {inner} }}")
    nested = "{ matches(tournamentId: 1) { edges { node { events(first: 200) { totalCount } } } } }"
    body = GraphQL().post(nested)
    assert [e["extensions"]["code"] for e in body["errors"]] == ["query_too_costly"]


def test_pages_inside_fragments_are_charged_too() -> None:
    pages = " ".join(f"a{n}: cards(first: 100) {{ totalCount }}" for n in range(11))
    spread = f"{{ ...Pages }} fragment Pages on Query {{ {pages} }}"
    assert codes_of(GraphQL().post(spread)) == ["query_too_costly"]
    inline = f"{{ ... on Query {{ {pages} }} }}"
    assert codes_of(GraphQL().post(inline)) == ["query_too_costly"]
    ten = " ".join(f"a{n}: cards(first: 100) {{ totalCount }}" for n in range(10))
    assert "errors" not in GraphQL().post(f"{{ ...P }} fragment P on Query {{ {ten} }}")


def codes_of(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]
