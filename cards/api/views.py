"""Read-only card API: card sets and card designs, no pagination (163 designs in all)."""

from __future__ import annotations

from rest_framework import viewsets

from cards.api.filters import CardFilter, CardSetFilter
from cards.api.serializers import CardSerializer, CardSetSerializer
from cards.models import Card, CardSet
from cards.selectors import card_list, card_set_list


class CardSetViewSet(viewsets.ReadOnlyModelViewSet[CardSet]):
    serializer_class = CardSetSerializer
    filterset_class = CardSetFilter
    queryset = card_set_list()


class CardViewSet(viewsets.ReadOnlyModelViewSet[Card]):
    serializer_class = CardSerializer
    filterset_class = CardFilter
    queryset = card_list()
