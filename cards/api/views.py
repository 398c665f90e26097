"""Read-only card API: card sets and card designs, no pagination (163 designs in all)."""

from __future__ import annotations

from typing import Any

from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from cards.api.cache import cached_answer
from cards.api.filters import CardFilter, CardSetFilter
from cards.api.serializers import CardSerializer, CardSetSerializer
from cards.models import Card, CardSet
from cards.selectors import card_list, card_set_list
from config.params import KnownQueryParameters


class CachedListMixin(KnownQueryParameters):
    """``list`` answers from the catalogue cache (the filters still check the query first)."""

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        view: Any = self
        queryset = view.filter_queryset(view.get_queryset())  # refuses a bad query, lazily
        query = request.query_params.urlencode()

        def build() -> Any:
            return view.get_serializer(queryset, many=True).data

        return Response(cached_answer(type(self).__name__, query, build))


class CardSetViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet[CardSet]):
    serializer_class = CardSetSerializer
    filterset_class = CardSetFilter
    queryset = card_set_list()


class CardViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet[Card]):
    serializer_class = CardSerializer
    filterset_class = CardFilter
    queryset = card_list()
