"""The card catalogue's responses, declared once (``apikit.shapes``).

``cards.selectors`` builds them. REST renders them (``to_json``: ``GET /api/v1/cards/``,
``/card-sets/``). The OpenAPI components ``Card`` and ``CardSet`` are made from them. So are the
GraphQL types of the same names.

Field order is REST's key order. Both are ``Node`` s. REST's ``id`` is GraphQL's
``databaseId``. GraphQL's ``id`` is the global id ``node(id:)`` finds
(``cards.graphql.schema.NODES``).
"""

from __future__ import annotations

from typing import Any

from apikit.shapes import Shape, field, shape
from cards.enums import Box, CardLevel, CardSetKind, CardTiming, Confidence

BOX = "base or beach_cup."


@shape("A card design of the catalogue.")
class Card(Shape):
    id: int = field("The design's id.", node_id=True)
    key: str = field('"Set/Name", the key tournaments use.')
    set: str = field("The set's name.")
    set_id: int = field("The set's id.")
    box: str = field(BOX, enum=Box)
    name: str = field("The name in the requested language (English when it has no translation).")
    level: str = field("S, A, B, C, R or SOLO.", enum=CardLevel)
    power: int | None = field("Base power; null if round.")
    power_is_round: bool = field("Power equals the round.")
    copies: int | None = field("Copies in its set, if known.")
    copies_per_starter_deck: int | None = field("Copies in each starter deck (starter cards).")
    keyword: str = field("The keyword, or empty.")
    timing: str = field("When the effect acts.", enum=CardTiming)
    effect: str = field("The effect text in the requested language (English when untranslated).")
    confidence: str = field("How sure the catalogue is of it.", enum=Confidence)
    note: str = field("The catalogue's note.")
    effect_code: str | None = field("The engine's effect code.")
    effect_params: dict[str, Any] = field("The effect's parameters.")
    translations: dict[str, dict[str, str]] = field(
        'Every translation: {"zh-hans": {"name": …, "effect": …}, "ru": …}.'
    )
    retired: bool = field("Left out of new tournaments.")
    curated: bool = field("Edited by an admin.")


@shape("A card set and its copy counts.")
class CardSet(Shape):
    id: int = field("The set's id.", node_id=True)
    name: str = field("Its name, e.g. Castle.")
    box: str = field(BOX, enum=Box)
    kind: str = field("basic, additional, starter or robot.", enum=CardSetKind)
    expected_copies: int = field("Copies the set should hold.")
    starter_decks: int | None = field("Starter decks the set makes (starter sets).")
    designs: int = field("Card designs in the set.")
    copy_total: int = field(
        "Copies the catalogue knows of its cards in play (retired cards are not counted, as new "
        "tournaments leave them out)."
    )
    unknown_copies: int = field("Designs in play whose copy count the catalogue does not know.")
    note: str = field("The catalogue's note.")
    retired: bool = field("Never offered to new tournaments.")
    playable: bool = field("An additional set a new tournament may choose (`additional_sets`).")
    missing: list[str] = field(
        "What keeps an additional set out of new tournaments (empty when playable, and for the "
        "other kinds)."
    )
    curated: bool = field("Edited by an admin.")
    cards: list[Card] = field("Its card designs, in catalogue order.", rest=False)
