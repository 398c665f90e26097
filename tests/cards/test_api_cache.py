"""The card API answers from a cache that any change of the catalogue empties at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from cards.catalogue import catalogue_load, catalogue_read
from cards.models import Card

pytestmark = pytest.mark.django_db


def castle_powers(client: Client) -> dict[str, int]:
    cards = client.get("/api/v1/cards/?set=Castle").json()
    return {card["name"]: card["power"] for card in cards}


def test_a_card_saved_in_admin_shows_at_once(
    catalogue: Any, admin_client: Client, django_assert_num_queries: Any
) -> None:
    client = Client()
    before = castle_powers(client)
    with django_assert_num_queries(0):
        assert castle_powers(client) == before, "the second read is served from the cache"
    card = Card.objects.get(card_set__name="Castle", name="Prince")
    card.power = before["Prince"] - 1
    card.save()
    assert castle_powers(client)["Prince"] == before["Prince"] - 1


def test_a_reload_of_a_changed_file_shows_at_once(catalogue: Any, tmp_path: Path) -> None:
    client = Client()
    before = castle_powers(client)
    data = catalogue_read()
    prince = next(c for c in data["cards"] if c["set"] == "Castle" and c["name"] == "Prince")
    prince["power"] = before["Prince"] - 1
    changed = tmp_path / "catalogue.json"
    changed.write_text(json.dumps(data))
    catalogue_load(path=changed)  # bulk writes: no save signal, the loader says so itself
    assert castle_powers(client)["Prince"] == before["Prince"] - 1
