from __future__ import annotations

from rest_framework import serializers

from cards.catalogue import CARD_FIELDS
from cards.models import Card, CardSet


class CardSetSerializer(serializers.ModelSerializer[CardSet]):
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
            "curated",
        )


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
        fields = ("id", "key", "set", "set_id", "box", "name", *CARD_FIELDS, "curated")

    def get_key(self, card: Card) -> str:
        return f"{card.card_set.name}/{card.name}"

    def get_name(self, card: Card) -> str:
        return card.translated("name")

    def get_effect(self, card: Card) -> str:
        return card.translated("effect")
