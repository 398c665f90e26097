"""The "Add card set" page checks its card rows by the same rules as the change page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from cards.catalogue import LoadReport
from cards.models import Card, CardSet
from cards.selectors import additional_set_problems

SET = {"name": "Exploit", "box": "base", "kind": "additional", "expected_copies": 40}


def _add_form(rows: list[dict[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {**SET, "position": 0, "note": "", "starter_decks": ""}
    data |= {"cards-TOTAL_FORMS": len(rows), "cards-INITIAL_FORMS": 0}
    data |= {"cards-MIN_NUM_FORMS": 0, "cards-MAX_NUM_FORMS": 1000}
    base = {"power_is_round": "", "copies": 2, "copies_per_starter_deck": "", "keyword": ""}
    base |= {"timing": "plain", "effect_code": "", "effect_params": "{}", "confidence": "medium"}
    for index, row in enumerate(rows):
        fields = {**base, **row}
        data |= {f"cards-{index}-{name}": value for name, value in fields.items() if value != ""}
    return data


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"name": "Starter", "level": "S", "power": 1}, "not level S"),
        ({"name": "Hard", "level": "R", "power": 1}, "not level R"),
        ({"name": "Solo", "level": "SOLO", "power": 1}, "not level SOLO"),
        ({"name": "Giant", "level": "A", "power": 9}, "at most 3"),
        ({"name": "Titan", "level": "C", "power": 30000}, "at most 10"),
    ],
)
def test_the_add_page_refuses_a_card_row_the_change_page_refuses(
    admin_client: Client, db: None, row: dict[str, Any], message: str
) -> None:
    answer = admin_client.post("/admin/cards/cardset/add/", _add_form([row]))
    assert answer.status_code == 200
    assert message in answer.content.decode()
    assert not CardSet.objects.filter(name="Exploit").exists()
    assert not Card.objects.filter(name=row["name"]).exists()


def test_the_add_page_saves_a_set_whose_rows_keep_the_rules(admin_client: Client, db: None) -> None:
    row = {"name": "Page", "level": "A", "power": 3}
    answer = admin_client.post("/admin/cards/cardset/add/", _add_form([row]))
    assert answer.status_code == 302
    assert Card.objects.get(card_set__name="Exploit").power == 3


def test_a_set_whose_card_breaks_a_rule_is_not_playable(catalogue: LoadReport) -> None:
    """A row written around the models (an older release, a raw update) keeps its set out of
    new tournaments: the playable check asks the same rules as every save."""
    assert additional_set_problems()["Shipwreck"] == []
    Card.objects.filter(card_set__name="Shipwreck", name="Submarine").update(power=30000)
    assert additional_set_problems()["Shipwreck"] == [
        "1 card design(s) break the catalogue's rules"
    ]


def test_a_set_cannot_change_to_a_kind_its_cards_break(catalogue: LoadReport) -> None:
    shipwreck = CardSet.objects.get(name="Shipwreck")
    shipwreck.kind = "robot"
    with pytest.raises(ValidationError, match="break the rules of a robot set"):
        shipwreck.full_clean()
    shipwreck.kind, shipwreck.box = "additional", "beach_cup"
    shipwreck.full_clean()  # every cap is higher in Beach Cup
