"""Cards are addressed by key and sets by name everywhere (issue 41): REST's
``/cards/{key}/`` and ``/card-sets/{name}/``, GraphQL's ``card(key:)`` and ``cardSet(name:)``.
A card's or a set's number still works in REST until the next release (deprecated); an unknown
key or name is a coded ``not_found`` naming the field."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from cards.catalogue import LoadReport
from tests.graphql.client import GraphQL


def _reporter(client: Client) -> dict[str, Any]:
    cards: list[dict[str, Any]] = client.get("/api/v1/cards/?set=City").json()
    return next(card for card in cards if card["name"] == "Reporter")


@pytest.mark.parametrize("spelled", [str, lambda key: quote(key, safe="")])
def test_a_card_is_read_by_its_key(client: Client, catalogue: LoadReport, spelled: Any) -> None:
    card = _reporter(client)
    response = client.get(f"/api/v1/cards/{spelled(card['key'])}/")
    assert response.status_code == 200
    assert response.json() == card


def test_a_cards_number_still_reads_it(client: Client, catalogue: LoadReport) -> None:
    card = _reporter(client)
    assert client.get(f"/api/v1/cards/{card['id']}/").json() == card


@pytest.mark.parametrize("key", ["City/Nobody", "Atlantis/Reporter", "Reporter", "99999"])
def test_an_unknown_card_key_is_not_found_naming_the_card(
    client: Client, catalogue: LoadReport, key: str
) -> None:
    response = client.get(f"/api/v1/cards/{key}/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert response.json()["details"] == {"card": key if key != "99999" else 99999}


def test_a_set_is_read_by_its_name_and_still_by_its_number(
    client: Client, catalogue: LoadReport
) -> None:
    by_name = client.get("/api/v1/card-sets/Film Studio/")
    assert by_name.status_code == 200
    assert by_name.json()["name"] == "Film Studio"
    assert client.get(f"/api/v1/card-sets/{by_name.json()['id']}/").json() == by_name.json()


def test_an_unknown_set_name_is_not_found_naming_the_set(
    client: Client, catalogue: LoadReport
) -> None:
    response = client.get("/api/v1/card-sets/Atlantis/")
    assert response.status_code == 404
    assert response.json()["details"] == {"card_set": "Atlantis"}


def test_the_card_paths_document_the_key_and_the_deprecated_number(client: Client) -> None:
    paths = client.get("/api/v1/schema/?format=json").json()["paths"]
    for path, name in (("/api/v1/cards/{key}/", "key"), ("/api/v1/card-sets/{name}/", "name")):
        [parameter] = paths[path]["get"]["parameters"]
        assert (parameter["name"], parameter["schema"]["type"]) == (name, "string")
        assert "Deprecated" in parameter["description"]


def test_graphql_reads_a_card_by_key_and_a_set_by_name(
    client: Client, catalogue: LoadReport
) -> None:
    card = _reporter(client)
    query = '{ card(key: "City/Reporter") { key databaseId } cardSet(name: "City") { name } }'
    found = GraphQL().data(query)
    assert found["card"] == {"key": "City/Reporter", "databaseId": card["id"]}
    assert found["cardSet"] == {"name": "City"}


def test_graphql_refuses_an_unknown_card_key_naming_the_card(catalogue: LoadReport) -> None:
    body = GraphQL().post('{ card(key: "City/Nobody") { key } }')
    [error] = body["errors"]
    assert error["extensions"]["code"] == "not_found"
    assert error["extensions"]["details"] == {"card": "City/Nobody"}
