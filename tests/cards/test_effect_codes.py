"""A curator picks a card's effect code from the engine's codes, each shown with its parameters,
and a set's card rows carry the effect's text and its translations."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client

from cards.catalogue import LoadReport
from cards.effectcodes import code_text
from cards.models import Card
from matches.engine.codes import EFFECT_SCHEMAS
from tests.cards.test_admin import _inline_form, _post_card


def _options(page: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, name
    found = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    return dict(found)


def test_the_card_page_offers_every_code_with_its_parameters(
    admin_client: Client, catalogue: LoadReport
) -> None:
    reporter = Card.objects.get(name="Reporter")
    page = admin_client.get(f"/admin/cards/card/{reporter.pk}/change/").content.decode()
    options = _options(page, "effect_code")
    assert set(options) == {"", *EFFECT_SCHEMAS}
    assert options["power_if"].startswith("power_if (bonus: ")
    assert "*whole number 1..10" in options["arrange_top"]  # n is required, from 1 to 10
    assert re.search(rf'<option value="{reporter.effect_code}"[^>]*selected', page)


def test_a_code_the_engine_does_not_know_is_refused_with_a_message(
    admin_client: Client, catalogue: LoadReport
) -> None:
    card = Card.objects.get(name="Submarine")
    response = _post_card(admin_client, card, effect_code="fly_away")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Card.objects.get(pk=card.pk).effect_code == card.effect_code


def test_a_sets_row_saves_its_effect_text_and_translations(
    admin_client: Client, catalogue: LoadReport
) -> None:
    card = Card.objects.get(name="Submarine")
    texts: dict[str, Any] = {"ru": {"name": "Подлодка", "effect": "Проба."}}
    changes = {"Submarine": {"effect": "A test effect.", "translations": texts}}
    url = f"/admin/cards/cardset/{card.card_set_id}/change/"
    page = admin_client.get(url).content.decode()
    assert 'name="cards-0-effect"' in page and 'name="cards-0-translations"' in page
    response = admin_client.post(url, _inline_form(card.card_set, **changes))
    assert response.status_code == 302, response.content.decode()[:2000]
    saved = Card.objects.get(pk=card.pk)
    assert (saved.effect, saved.translations) == ("A test effect.", texts)


def test_every_code_has_a_label() -> None:
    for code, table in EFFECT_SCHEMAS.items():
        assert code_text(code, table).startswith(code)
