"""The read-only card API, its filters and its OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from cards.catalogue import LoadReport


def _cards(client: Client, query: str = "") -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/cards/{query}")
    assert response.status_code == 200
    body: list[dict[str, Any]] = response.json()
    return body


def test_all_cards_are_listed_on_one_page(client: Client, catalogue: LoadReport) -> None:
    assert len(_cards(client)) == 163


def test_filter_by_set_lists_castle_designs(client: Client, catalogue: LoadReport) -> None:
    castle = _cards(client, "?set=Castle")
    assert len(castle) == 11
    assert sum(card["copies"] for card in castle) == 40
    assert {card["set"] for card in castle} == {"Castle"}


def test_filter_by_box(client: Client, catalogue: LoadReport) -> None:
    beach = _cards(client, "?box=beach_cup")
    assert beach and {card["box"] for card in beach} == {"beach_cup"}
    assert len(beach) + len(_cards(client, "?box=base")) == 163


def test_filter_by_level(client: Client, catalogue: LoadReport) -> None:
    solo = _cards(client, "?level=SOLO")
    assert sorted(card["name"] for card in solo) == ["Autocorrect", "Chatbot", "Robogram"]


def test_filter_by_keyword(client: Client, catalogue: LoadReport) -> None:
    flag_loss = _cards(client, "?keyword=Flag loss")
    assert flag_loss and {card["keyword"] for card in flag_loss} == {"Flag loss"}


def test_filters_combine(client: Client, catalogue: LoadReport) -> None:
    cards = _cards(client, "?box=base&set=Shipwreck&level=C")
    submarine = next(card for card in cards if card["name"] == "Submarine")
    assert submarine["power"] == 9


def test_a_card_shows_every_field(client: Client, catalogue: LoadReport) -> None:
    cyborg = _cards(client, "?set=Robot&level=S")
    card = next(card for card in cyborg if card["name"] == "Cyborg")
    assert card["power"] is None and card["power_is_round"] is True
    expected = {
        "id",
        "key",
        "set",
        "set_id",
        "box",
        "name",
        "level",
        "power",
        "power_is_round",
        "copies",
    }
    expected |= {"copies_per_starter_deck", "keyword", "timing", "effect", "confidence", "note"}
    expected |= {"effect_code", "effect_params", "translations", "retired", "curated"}
    assert set(card) == expected


def test_one_card_by_id(client: Client, catalogue: LoadReport) -> None:
    card = _cards(client, "?set=Castle")[0]
    response = client.get(f"/api/v1/cards/{card['id']}/")
    assert response.json() == card


def test_an_unknown_level_is_a_coded_error(client: Client, catalogue: LoadReport) -> None:
    response = client.get("/api/v1/cards/?level=Z")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "level" in response.json()["details"]


def test_card_sets_report_their_totals(client: Client, catalogue: LoadReport) -> None:
    sets = client.get("/api/v1/card-sets/?box=base").json()
    castle = next(card_set for card_set in sets if card_set["name"] == "Castle")
    assert (castle["designs"], castle["copy_total"], castle["expected_copies"]) == (11, 40, 40)
    assert {card_set["box"] for card_set in sets} == {"base"}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/schema/", "/api/v1/docs/"])
def test_schema_and_docs_are_served(client: Client, path: str) -> None:
    assert client.get(path).status_code == 200


@pytest.mark.django_db
def test_the_schema_describes_the_card_filters(client: Client) -> None:
    schema = client.get("/api/v1/schema/?format=json").json()
    parameters = schema["paths"]["/api/v1/cards/"]["get"]["parameters"]
    assert {"box", "set", "level", "keyword"} <= {parameter["name"] for parameter in parameters}


@pytest.mark.django_db
def test_the_index_page_links_to_the_api(client: Client) -> None:
    assert b"/api/v1/docs/" in client.get("/").content


def test_a_card_has_its_key(client: Client, catalogue: LoadReport) -> None:
    castle = _cards(client, "?set=castle")
    assert {card["key"] for card in castle} >= {"Castle/Hermit", "Castle/Pig"}
    assert all(card["key"] == f"{card['set']}/{card['name']}" for card in castle)


def test_search_reads_names_and_effect_text(client: Client, catalogue: LoadReport) -> None:
    by_name = _cards(client, "?search=hERMit")
    assert [card["key"] for card in by_name] == ["Castle/Hermit"]
    by_effect = _cards(client, "?search=bench")
    assert by_effect and all(
        "bench" in (card["name"] + card["effect"]).lower() for card in by_effect
    )
    assert any("bench" not in card["name"].lower() for card in by_effect)
    assert _cards(client, "?search=zzzqqq") == []
    assert len(_cards(client, "?search=bench&set=Castle")) < len(by_effect)


def test_an_unknown_set_is_a_coded_400(client: Client, catalogue: LoadReport) -> None:
    for _ in range(2):  # the second time from the cache's side: still refused
        response = client.get("/api/v1/cards/?set=Atlantis")
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "unknown_set"
        assert "Castle" in body["details"]["sets"]
