from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from cards.cache import cached_answer
from cards.models import Box, Card, CardSet, Level
from infra.errors import ApplicationError


def set_names() -> list[str]:
    """Every set's name, cached per catalogue version.

    So a filtered list stays query-free."""
    return cached_answer(
        "set-names",
        "",
        lambda: list(CardSet.objects.order_by("position").values_list("name", flat=True)),
    )


class CardSetFilter(django_filters.FilterSet):
    box = django_filters.ChoiceFilter(choices=Box.choices)
    retired = django_filters.BooleanFilter(help_text="true: only retired sets; false: none.")

    class Meta:
        model = CardSet
        fields = ("box", "kind", "retired")


class CardFilter(django_filters.FilterSet):
    box = django_filters.ChoiceFilter(field_name="card_set__box", choices=Box.choices)
    set = django_filters.CharFilter(
        method="filter_set", help_text="Set name, e.g. Castle (an unknown set is `unknown_set`)."
    )
    level = django_filters.ChoiceFilter(choices=Level.choices)
    keyword = django_filters.CharFilter(
        lookup_expr="iexact", help_text="Keyword, e.g. 'From the bench'."
    )
    search = django_filters.CharFilter(
        method="filter_search", help_text="Words of the name or effect text (case-insensitive)."
    )
    retired = django_filters.BooleanFilter(
        help_text="true: only retired cards; false: only cards new tournaments play. "
        "Left out: every card, each with its `retired` flag."
    )

    class Meta:
        model = Card
        fields = ("box", "set", "level", "keyword", "timing", "search", "retired")

    def filter_set(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        names = set_names()
        if value.lower() not in {known.lower() for known in names}:
            message = _("No set is named %(name)r.") % {"name": value}
            raise ApplicationError("unknown_set", message, {"sets": names})
        return queryset.filter(card_set__name__iexact=value)

    def filter_search(self, queryset: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return queryset.filter(Q(name__icontains=value) | Q(effect__icontains=value))
