"""Read-only card API: card sets and card designs, with no pagination (163 designs in all).

Each answer is a shape of ``cards.shapes`` (``to_json``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.openapi import operation
from apikit.shapes import to_json
from cards import shapes
from cards.cache import cached_answer
from cards.filters import CardFilter, CardSetFilter
from cards.models import Card, CardSet
from cards.selectors import (
    card_by_key,
    card_list,
    card_set_by_name,
    card_set_list,
    card_set_views,
    card_views,
)
from infra.params import KnownQueryParameters


class CachedListMixin(KnownQueryParameters):
    """``list`` answers from the catalogue cache; ``views`` shapes the filtered rows.

    The filters still check the query first."""

    views: Callable[[Any], list[Any]]

    def list(self, request: Request, *args: object, **kwargs: object) -> Response:
        view: Any = self
        queryset = view.filter_queryset(view.get_queryset())  # refuses a bad query, lazily
        query = request.query_params.urlencode()
        answer = cached_answer(type(self).__name__, query, lambda: to_json(self.views(queryset)))
        return Response(answer)


CARD_KEY = OpenApiParameter(
    "key",
    str,
    OpenApiParameter.PATH,
    description="The card's key, \"Set/Name\" (as `key` in its answer). Deprecated: the card's "
    "number (`id`) is still accepted until the next release.",
)
SET_NAME = OpenApiParameter(
    "name",
    str,
    OpenApiParameter.PATH,
    description="The set's name. Deprecated: the set's number (`id`) is still accepted until "
    "the next release.",
)


class CardSetViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet[CardSet]):
    filterset_class = CardSetFilter
    lookup_url_kwarg = "name"
    lookup_value_regex = "[^/]+"
    queryset = card_set_list()

    @staticmethod
    def views(found: QuerySet[CardSet]) -> list[shapes.CardSet]:
        return card_set_views(found)

    @operation("List the card sets", "Every set of both boxes.")
    @extend_schema(responses=shapes.CardSet)
    def list(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().list(request, *args, **kwargs)

    @operation(
        "Read a card set",
        "One set by its name. Deprecated: its number (`id`) is accepted until the next release.",
    )
    @extend_schema(parameters=[SET_NAME], responses=shapes.CardSet)
    def retrieve(self, request: Request, name: str, *args: object, **kwargs: object) -> Response:
        return Response(to_json(card_set_by_name(name)))


class CardViewSet(CachedListMixin, viewsets.ReadOnlyModelViewSet[Card]):
    filterset_class = CardFilter
    # ``/cards/{key}/`` with the key's one slash (``/cards/City/Reporter/``), or a number
    # (deprecated); a path of two slashes is another route's (``…/stats/``).
    lookup_url_kwarg = "key"
    lookup_value_regex = "[^/]+(?:/[^/]+)?"
    queryset = card_list()

    @staticmethod
    def views(found: QuerySet[Card]) -> list[shapes.Card]:
        return card_views(found)

    @operation(
        "List the card catalogue",
        "Every card of the curated catalogue, filtered by the query.",
        {400: ["unknown_set"]},
    )
    @extend_schema(responses=shapes.Card)
    def list(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().list(request, *args, **kwargs)

    @operation(
        "Read a card",
        'One card of the catalogue by its key "Set/Name" (its slash as is or as `%2F`). '
        "Deprecated: its number (`id`) is accepted until the next release.",
    )
    @extend_schema(parameters=[CARD_KEY], responses=shapes.Card)
    def retrieve(self, request: Request, key: str, *args: object, **kwargs: object) -> Response:
        return Response(to_json(card_by_key(key)))
