from __future__ import annotations

from typing import Any

from rest_framework import serializers

from cards.catalogue import CARD_FIELDS
from cards.models import Card, CardSet
from cards.selectors import additional_set_problems


class CardSetSerializer(serializers.ModelSerializer[CardSet]):
    playable = serializers.SerializerMethodField(
        help_text="An additional set a new tournament may choose (`additional_sets`)."
    )
    missing = serializers.SerializerMethodField(
        help_text="What keeps an additional set out of new tournaments (empty when playable, "
        "and for the other kinds)."
    )
    designs = serializers.IntegerField(read_only=True, help_text="Card designs in the set.")
    copy_total = serializers.IntegerField(read_only=True, help_text="Copies the catalogue knows.")
    unknown_copies = serializers.IntegerField(
        read_only=True, help_text="Designs whose copy count the catalogue does not know."
    )

    class Meta:
        model = CardSet
        fields = (
            "id",
            "name",
            "box",
            "kind",
            "expected_copies",
            "starter_decks",
            "designs",
            "copy_total",
            "unknown_copies",
            "note",
            "retired",
            "playable",
            "missing",
            "curated",
        )

    def _missing(self, card_set: CardSet) -> list[str] | None:
        """The set's problems (None: not an additional set), one query per serialization."""
        root: Any = self.root
        problems: dict[str, list[str]] | None = getattr(root, "_set_problems", None)
        if problems is None:
            problems = root._set_problems = additional_set_problems()
        return problems.get(card_set.name)

    def get_playable(self, card_set: CardSet) -> bool:
        return self._missing(card_set) == []

    def get_missing(self, card_set: CardSet) -> list[str]:
        return self._missing(card_set) or []


class CardSerializer(serializers.ModelSerializer[Card]):
    set = serializers.CharField(source="card_set.name", read_only=True)
    set_id = serializers.IntegerField(source="card_set.id", read_only=True)
    box = serializers.CharField(source="card_set.box", read_only=True)
    effect_params = serializers.DictField(child=serializers.JSONField(), read_only=True)
    key = serializers.SerializerMethodField(help_text='"Set/Name", the key tournaments use.')
    name = serializers.SerializerMethodField(
        help_text="The name in the requested language (English when it has no translation)."
    )
    effect = serializers.SerializerMethodField(
        help_text="The effect text in the requested language (English when untranslated)."
    )
    translations = serializers.DictField(
        child=serializers.DictField(child=serializers.CharField()),
        read_only=True,
        help_text='Every translation: {"zh-hans": {"name": …, "effect": …}, "ru": …}.',
    )

    class Meta:
        model = Card
        fields = ("id", "key", "set", "set_id", "box", "name", *CARD_FIELDS, "retired", "curated")

    def get_key(self, card: Card) -> str:
        return f"{card.card_set.name}/{card.name}"

    def get_name(self, card: Card) -> str:
        return card.translated("name")

    def get_effect(self, card: Card) -> str:
        return card.translated("effect")
