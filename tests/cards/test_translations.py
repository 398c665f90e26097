"""Card names and effect texts in Simplified Chinese and Russian: kept in the catalogue file,
loaded and curated like the English text, served in the caller's language (English when a
translation is missing), and the missing ones listed by ``missing_translations``."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from cards.catalogue import LoadReport, catalogue_load, catalogue_read
from cards.models import Card
from tests.graphql.client import GraphQL

SUBMARINE = "Shipwreck/Submarine"
ENGLISH = ("Submarine", "Move the bottom card of your own deck to your exhaust pile.")
CHINESE = ("潜水艇", "将你自己牌库底的牌移到你的耗尽堆。")
RUSSIAN = ("Подводная лодка", "Переместите нижнюю карту своей колоды в свой сброс.")


def submarine(lang: str | None = None, **kwargs: Any) -> dict[str, Any]:
    query = {"search": "Submarine"} | ({"lang": lang} if lang else {})
    cards = Client().get("/api/v1/cards/", query, **kwargs).json()
    [card] = [card for card in cards if card["key"] == SUBMARINE]
    return dict(card)


@pytest.mark.parametrize(
    ("kwargs", "texts"),
    [
        ({}, ENGLISH),
        ({"lang": "zh-hans"}, CHINESE),
        ({"headers": {"Accept-Language": "ru-RU,ru;q=0.9"}}, RUSSIAN),
    ],
)
def test_the_card_api_answers_in_the_callers_language(
    catalogue: LoadReport, kwargs: dict[str, Any], texts: tuple[str, str]
) -> None:
    card = submarine(**kwargs)
    assert (card["name"], card["effect"]) == texts
    assert card["key"] == SUBMARINE  # the key tournaments use never changes
    assert card["translations"]["ru"] == {"name": RUSSIAN[0], "effect": RUSSIAN[1]}


def test_each_language_is_cached_apart(catalogue: LoadReport) -> None:
    names = [submarine(lang)["name"] for lang in ("en", "zh-hans", "ru")]
    names += [submarine(lang)["name"] for lang in ("ru", "en")]
    assert names == ["Submarine", "潜水艇", "Подводная лодка", "Подводная лодка", "Submarine"]


def test_a_missing_translation_falls_back_to_english(catalogue: LoadReport) -> None:
    Card.objects.filter(name="Submarine").update(translations={"ru": {"name": RUSSIAN[0]}})
    card = submarine("ru")
    assert (card["name"], card["effect"]) == (RUSSIAN[0], ENGLISH[1])
    assert submarine("zh-hans")["name"] == ENGLISH[0]


def test_graphql_answers_in_the_callers_language(catalogue: LoadReport) -> None:
    query = '{ cards(first: 10, search: "Submarine") { edges { node { key name effect } } } }'
    gql = GraphQL()
    response = gql.client.post(
        "/graphql/?lang=ru", {"query": query}, content_type="application/json"
    )
    nodes = [edge["node"] for edge in response.json()["data"]["cards"]["edges"]]
    [card] = [node for node in nodes if node["key"] == SUBMARINE]
    assert (card["name"], card["effect"]) == RUSSIAN


def test_the_file_translations_load_and_a_second_run_changes_nothing(
    catalogue: LoadReport,
) -> None:
    by_key = {f"{row['set']}/{row['name']}": row["i18n"] for row in catalogue_read()["cards"]}
    loaded = {f"{c.card_set.name}/{c.name}": c.translations for c in Card.objects.all()}
    assert loaded == by_key
    report = catalogue_load()
    assert (report.cards.updated, report.cards.unchanged) == (0, 163)


def test_an_edited_translation_is_restored_unless_curated(catalogue: LoadReport) -> None:
    wrong = {"ru": {"name": "Лодка", "effect": "?"}}
    Card.objects.filter(name="Submarine").update(translations=wrong)
    assert catalogue_load().cards.updated == 1
    assert Card.objects.get(name="Submarine").translations["ru"]["name"] == RUSSIAN[0]
    Card.objects.filter(name="Submarine").update(translations=wrong, curated=True)
    assert catalogue_load().cards.skipped == ["Shipwreck / Submarine"]
    assert Card.objects.get(name="Submarine").translations == wrong


def test_an_admin_edit_of_a_translation_is_checked_and_curated(
    admin_client: Client, catalogue: LoadReport
) -> None:
    from tests.cards.test_admin import _post_card

    card = Card.objects.get(name="Submarine")
    bad = _post_card(admin_client, card, translations=json.dumps({"de": {"name": "U-Boot"}}))
    assert bad.status_code == 200 and "No language" in bad.content.decode()
    good = {"zh-hans": {"name": "潜艇", "effect": CHINESE[1]}, "ru": card.translations["ru"]}
    response = _post_card(admin_client, card, translations=json.dumps(good))
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.translations, card.curated) == (good, True)


def test_missing_translations_lists_them_per_language(catalogue: LoadReport) -> None:
    out = StringIO()
    call_command("missing_translations", "--strict", stdout=out)
    assert out.getvalue() == (
        "zh-hans: 0 cards without a translation\nru: 0 cards without a translation\n"
    )
    Card.objects.filter(name="Submarine").update(translations={"zh-hans": {"name": "潜水艇"}})
    out = StringIO()
    call_command("missing_translations", "--lang", "ru", stdout=out)
    assert out.getvalue() == f"ru: 1 card without a translation\n  {SUBMARINE}\n"
    with pytest.raises(CommandError, match="2 translation"):
        call_command("missing_translations", "--strict", stdout=StringIO())
