"""Card sets as files, in the catalogue's own format.

A file holds ``sets`` and ``cards``, and ``starter_decks`` for starter sets. ``catalogue_load``
imports it again, under the catalogue's own rules. A dry run lists what would change."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cards.models import Card, CardSet

FORMAT_NOTE = (
    "Card sets exported from Challengers!: import with `manage.py load_catalogue --file F "
    "--only-its-sets` (add --dry-run first to see what would change)."
)


def sets_export(card_sets: Iterable[CardSet]) -> dict[str, object]:
    """``card_sets`` and their cards as a catalogue file.

    Retired cards are included, marked by their ``note``."""
    chosen = sorted(card_sets, key=lambda card_set: (card_set.position, card_set.name))
    cards = Card.objects.filter(card_set__in=chosen).select_related("card_set")
    data: dict[str, Any] = {
        "about": FORMAT_NOTE,
        "sets": [_set_entry(card_set) for card_set in chosen],
        "cards": [_card_entry(card) for card in cards.order_by("card_set__position", "pk")],
    }
    decks = {card_set.starter_decks for card_set in chosen if card_set.starter_decks}
    if decks:
        data["starter_decks"] = {"decks_per_box": max(decks)}
    return data


def _set_entry(card_set: CardSet) -> dict[str, object]:
    entry: dict[str, Any] = {
        "name": card_set.name,
        "box": card_set.box,
        "kind": card_set.kind,
        "cards": card_set.expected_copies,
        "position": card_set.position,  # where it sits among all sets: an import keeps it
    }
    if card_set.note:
        entry["note"] = card_set.note
    return entry


def _card_entry(card: Card) -> dict[str, object]:
    return {
        "box": card.card_set.box,
        "set": card.card_set.name,
        "name": card.name,
        "level": card.level,
        "power": "round" if card.power_is_round else card.power,
        "copies": card.copies,
        "copies_per_starter_deck": card.copies_per_starter_deck,
        "keyword": card.keyword or None,
        "timing": card.timing,
        "effect": card.effect or None,
        "confidence": card.confidence,
        "note": card.note or None,
        "effect_code": card.effect_code,
        "effect_params": card.effect_params,
        "i18n": card.translations,
    }
