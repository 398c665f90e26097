"""Read-side queries of the card catalogue."""

from __future__ import annotations

from django.db.models import Count, F, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from cards.models import Card, CardSet, SetKind
from cards.rules import PILE_LEVELS, additional_set_missing


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


def additional_set_problems() -> dict[str, list[str]]:
    """Every additional set by name, with what keeps it out of new tournaments ([]: playable).

    One query: the copies, unknown copy counts and levels of each set's designs in play.
    """
    in_play = Q(cards__retired=False)
    per_level = {
        f"has_{level}": Count("cards", filter=in_play & Q(cards__level=level))
        for level in PILE_LEVELS
    }
    rows = (
        CardSet.objects.filter(kind=SetKind.ADDITIONAL)
        .annotate(
            copies=Coalesce(Sum("cards__copies", filter=in_play), 0),
            unknown=Count("cards", filter=in_play & Q(cards__copies__isnull=True)),
            **per_level,
        )
        .values("name", "retired", "copies", "unknown", *per_level)
    )
    return {
        row["name"]: additional_set_missing(
            retired=row["retired"],
            copies=row["copies"],
            unknown_copies=row["unknown"],
            levels=frozenset(level for level in PILE_LEVELS if row[f"has_{level}"]),
        )
        for row in rows
    }


def playable_sets() -> list[str]:
    """The additional sets a new tournament may play, in catalogue order."""
    return [name for name, missing in additional_set_problems().items() if not missing]
