"""Cards and card sets are ``Node`` s, and the card filters that take a closed set are enums.

A card's and a set's GraphQL ``id`` is a global id (``Card:5``), its ``databaseId`` REST's
``id``; ``node(id:)`` answers the object as ``cards``/``cardSets`` show it. A filter's closed set
(box, level, timing) is an enum in GraphQL and an ``enum`` in REST's OpenAPI; a value outside it
is refused with a code in both.
"""

from __future__ import annotations

import base64
import enum
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from cards.enums import Box, CardLevel, CardSetKind, CardTiming
from tests.graphql.client import GraphQL, nodes

NODE = """query($id: ID!) { node(id: $id) { __typename id
  ... on Card { databaseId key setId level }
  ... on CardSet { databaseId name designs cards(first: 100) { totalCount } } } }"""


def gid(kind: str, number: int) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body["errors"]]


def test_a_card_is_a_node_whose_database_id_is_rests_id(catalogue: Any) -> None:
    [card] = nodes(
        GraphQL().data('{ cards(key: "Castle/Dragon") { edges { node { id } } } }')["cards"]
    )
    found = GraphQL().data(NODE, id=card["id"])["node"]
    rest = APIClient().get(f"/api/v1/cards/{found['databaseId']}/").json()
    assert card["id"] == gid("Card", rest["id"])
    assert (found["__typename"], found["key"], found["setId"]) == (
        "Card",
        rest["key"],
        rest["set_id"],
    )
    assert found["level"] == rest["level"]


def test_card_sets_filter_by_kind_as_rest_does(catalogue: Any) -> None:
    rest = APIClient().get("/api/v1/card-sets/?kind=starter").json()
    found = GraphQL().data("{ cardSets(kind: STARTER) { edges { node { databaseId kind } } } }")
    assert [node["databaseId"] for node in nodes(found["cardSets"])] == [s["id"] for s in rest]
    assert {node["kind"] for node in nodes(found["cardSets"])} == {"STARTER"}


def test_a_card_set_is_a_node_with_its_cards(catalogue: Any) -> None:
    sets = nodes(
        GraphQL().data("{ cardSets(first: 100) { edges { node { id name } } } }")["cardSets"]
    )
    rest = {row["name"]: row for row in APIClient().get("/api/v1/card-sets/").json()}
    assert len(sets) == len(rest)
    castle = next(row for row in sets if row["name"] == "Castle")
    assert castle["id"] == gid("CardSet", rest["Castle"]["id"])
    found = GraphQL().data(NODE, id=castle["id"])["node"]
    assert (found["__typename"], found["databaseId"]) == ("CardSet", rest["Castle"]["id"])
    assert found["designs"] == found["cards"]["totalCount"] == rest["Castle"]["designs"]


def test_an_unknown_card_or_set_is_not_found(catalogue: Any) -> None:
    for kind in ("Card", "CardSet"):
        assert codes(GraphQL().post(NODE, id=gid(kind, 999_999))) == ["not_found"]
    for path in ("cards", "card-sets"):
        response = APIClient().get(f"/api/v1/{path}/999999/")
        assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert codes(GraphQL("Bearer wrong").post(NODE, id=gid("Card", 1))) == ["bad_token"]


@pytest.mark.parametrize(
    ("argument", "enum"),
    [("box", "Box"), ("level", "CardLevel"), ("timing", "CardTiming")],
)
def test_a_closed_filter_is_an_enum_and_a_value_outside_it_is_refused(
    catalogue: Any, argument: str, enum: str
) -> None:
    query = '{ __type(name: "Query") { fields { name args { name type { name } } } } }'
    fields = {f["name"]: f for f in GraphQL().data(query)["__type"]["fields"]}
    found = {a["name"]: a["type"]["name"] for a in fields["cards"]["args"]}
    assert found[argument] == enum
    of_sets = {a["name"]: a["type"]["name"] for a in fields["cardSets"]["args"]}
    assert (of_sets["box"], of_sets["kind"]) == ("Box", "CardSetKind")
    literal = GraphQL().post(f"{{ cards({argument}: NOPE) {{ totalCount }} }}")
    assert codes(literal) == ["invalid_query"]
    variable = GraphQL().post(
        f"query($v: {enum}) {{ cards({argument}: $v) {{ totalCount }} }}", v="NOPE"
    )
    assert codes(variable) == ["invalid_variables"]
    response = APIClient().get("/api/v1/cards/", {argument: "nope"})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def values_of(declared: type[enum.Enum]) -> set[str]:
    return {str(member.value) for member in declared}


def test_rests_filters_carry_their_enums_in_openapi() -> None:
    spec = SchemaGenerator().get_schema(request=None, public=True)

    def enums(path: str) -> dict[str, set[str]]:
        parameters = spec["paths"][path]["get"]["parameters"]
        return {p["name"]: set(p["schema"]["enum"]) for p in parameters if "enum" in p["schema"]}

    assert enums("/api/v1/cards/") == {
        "box": values_of(Box),
        "level": values_of(CardLevel),
        "timing": values_of(CardTiming),
    }
    assert enums("/api/v1/card-sets/") == {
        "box": values_of(Box),
        "kind": values_of(CardSetKind),
    }
