from __future__ import annotations

import django_filters

from cards.models import Box, Card, CardSet, Level


class CardSetFilter(django_filters.FilterSet):
    box = django_filters.ChoiceFilter(choices=Box.choices)

    class Meta:
        model = CardSet
        fields = ("box", "kind")


class CardFilter(django_filters.FilterSet):
    box = django_filters.ChoiceFilter(field_name="card_set__box", choices=Box.choices)
    set = django_filters.CharFilter(
        field_name="card_set__name", lookup_expr="iexact", help_text="Set name, e.g. Castle."
    )
    level = django_filters.ChoiceFilter(choices=Level.choices)
    keyword = django_filters.CharFilter(
        lookup_expr="iexact", help_text="Keyword, e.g. 'From the bench'."
    )

    class Meta:
        model = Card
        fields = ("box", "set", "level", "keyword", "timing")
