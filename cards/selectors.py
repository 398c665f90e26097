"""Read-side queries of the card catalogue."""

from __future__ import annotations

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from cards.models import Card, CardSet


def card_set_list() -> QuerySet[CardSet]:
    """Card sets with ``designs``, ``copy_total`` (known copies) and ``unknown_copies`` (designs
    whose copy count the catalogue does not know) annotated."""
    per_card = Coalesce(
        F("cards__copies"), F("cards__copies_per_starter_deck") * F("starter_decks")
    )
    unknown = Q(cards__copies__isnull=True, cards__copies_per_starter_deck__isnull=True)
    return CardSet.objects.annotate(
        designs=Count("cards"),
        copy_total=Coalesce(Sum(per_card), 0),
        unknown_copies=Count("cards", filter=unknown),
    )


def card_list() -> QuerySet[Card]:
    return Card.objects.select_related("card_set")


def copy_warning(*, card_set: CardSet, copy_total: int, unknown_copies: int) -> str | None:
    """Why a set's copies do not add up to its expected total, or None when they do."""
    if unknown_copies:
        return (
            f"{unknown_copies} design(s) have no copy count: {copy_total} copies known "
            f"of {card_set.expected_copies} expected."
        )
    if copy_total != card_set.expected_copies:
        return f"Copies add up to {copy_total}, but the set should hold {card_set.expected_copies}."
    return None


def card_missing_translations(*, language: str) -> list[str]:
    """The ``"Set/Name"`` keys of the cards whose name, or whose effect (when the card has one),
    has no translation into ``language``: those the API shows in English."""
    missing = []
    for card in card_list().order_by("card_set__position", "name"):
        texts = (card.translations or {}).get(language) or {}
        wanted = ["name", "effect"] if card.effect else ["name"]
        if not all(texts.get(field) for field in wanted):
            missing.append(f"{card.card_set.name}/{card.name}")
    return missing
