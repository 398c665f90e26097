"""Card sets and cards: the root ``Query`` fields ``cardSets`` and ``cards``, and their ``Node``
s. The types are made from ``cards.shapes`` (``apikit.shapes.graphql_type``); the closed sets a
filter takes (box, level, timing) are enums, the others (a set's name, a keyword, words) strings
that REST's FilterSet checks as it checks REST's query."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

import strawberry
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from apikit.enums import plain
from apikit.graphql import require_known_caller, selects
from apikit.graphql_pages import Page, page_of, paged
from cards import shapes
from cards.cache import cached_named
from cards.enums import Box, CardLevel, CardSetKind, CardTiming
from cards.filters import CardFilter, CardSetFilter
from cards.graphql.types import Card, CardConnection, CardSet, CardSetConnection
from cards.selectors import (
    card_by_id,
    card_by_key,
    card_list,
    card_set_by_id,
    card_set_by_name,
    card_set_list,
    card_set_views,
    card_views,
)
from infra.errors import ApplicationError

T = TypeVar("T")

# Built once, as REST's viewsets hold theirs (annotating the sets' query costs more than
# reading its cached answer); each request filters a copy.
CARD_SETS = card_set_list()

BoxArgument = Annotated[Box | None, strawberry.argument(description="BASE or BEACH_CUP.")]


def _filtered(filterset: Any, data: dict[str, Any], queryset: QuerySet[Any]) -> QuerySet[Any]:
    """``queryset`` through the REST FilterSet: a bad value is ``invalid``, as in REST."""
    given = _given(data)
    applied = filterset(data=given, queryset=queryset)
    if not applied.is_valid():
        errors = {k: [str(m) for m in v] for k, v in applied.errors.items()}
        raise ApplicationError("invalid", _("Invalid input."), errors)
    return applied.qs


def _given(data: dict[str, Any]) -> dict[str, Any]:
    return {name: plain(value) for name, value in data.items() if value is not None}


def _whole(name: str, data: dict[str, Any], build: Callable[[], list[T]], page: Page) -> Any:
    """``page`` of the whole list ``build`` makes, cached as REST's lists are (per catalogue
    version, language and filters): the page is then named by its content and reused whole."""
    listed, content = cached_named(name, urlencode(sorted(_given(data).items())), build)
    return page_of(listed, page, content=content)


def _node(read: Callable[[int], Any]) -> Callable[[strawberry.Info, int], Any]:
    def found(info: strawberry.Info, number: int) -> Any:
        require_known_caller(info)
        return read(number)

    return found


# The catalogue's ``Node`` s (``Card:5``, ``CardSet:2``), as ``tournaments.graphql.queries.NODES``
# holds them: how many numbers the id holds, and its reader. ``server.schema`` adds them to
# ``node(id:)`` (the cards import no other app).
NODES: dict[str, tuple[int, Callable[..., Any]]] = {
    "Card": (1, _node(card_by_id)),
    "CardSet": (1, _node(card_set_by_id)),
}


@strawberry.type
class Query:
    @strawberry.field(description='One card design by its key ("Set/Name").')
    def card(
        self,
        info: strawberry.Info,
        key: Annotated[str, strawberry.argument(description='"Set/Name" (`key` of a `Card`).')],
    ) -> Card:
        require_known_caller(info)
        found: shapes.Card = card_by_key(key)  # the type resolves from the shape
        return found

    @strawberry.field(description="One card set by its name, with its designs.")
    def card_set(
        self,
        info: strawberry.Info,
        name: Annotated[str, strawberry.argument(description="The set's name.")],
    ) -> CardSet:
        require_known_caller(info)
        found: shapes.CardSet = card_set_by_name(name)
        return found

    @strawberry.field(description="Card sets, optionally of one box or one kind.")
    @paged()
    def card_sets(
        self,
        info: strawberry.Info,
        box: BoxArgument = None,
        kind: Annotated[
            CardSetKind | None,
            strawberry.argument(description="BASIC, ADDITIONAL, STARTER or ROBOT."),
        ] = None,
        *,
        page: Page,
    ) -> CardSetConnection:
        require_known_caller(info)  # a bad token is refused here as in REST
        data = {"box": box, "kind": kind}
        found = _filtered(CardSetFilter, data, CARD_SETS.all())
        # Some thirty sets: read whole (their designs in one more query, when selected), paged
        # here.
        with_cards = selects(info, "cards")
        result: CardSetConnection = _whole(
            f"graphql:sets:{int(with_cards)}",
            data,
            lambda: card_set_views(found, with_cards=with_cards),
            page,
        )
        return result

    @strawberry.field(description="Card designs, filtered as REST's `/api/v1/cards/`.")
    @paged()
    def cards(
        self,
        info: strawberry.Info,
        box: BoxArgument = None,
        set: Annotated[
            str | None,
            strawberry.argument(description="Set name (an unknown set is `unknown_set`)."),
        ] = None,
        level: Annotated[
            CardLevel | None, strawberry.argument(description="S, A, B, C, R or SOLO.")
        ] = None,
        keyword: Annotated[
            str | None, strawberry.argument(description="Keyword (any case).")
        ] = None,
        timing: Annotated[
            CardTiming | None, strawberry.argument(description="When the effect acts.")
        ] = None,
        key: Annotated[str | None, strawberry.argument(description='"Set/Name".')] = None,
        search: Annotated[
            str | None,
            strawberry.argument(description="Words of the name or effect text (any case)."),
        ] = None,
        *,
        page: Page,
    ) -> CardConnection:
        require_known_caller(info)
        data = {"box": box, "set": set, "level": level, "keyword": keyword, "timing": timing}
        data |= {"search": search}
        found = _filtered(CardFilter, data, card_list())
        if key is not None:
            set_name, _slash, name = key.partition("/")
            found = found.filter(card_set__name=set_name, name=name)
        # At most the 163 designs, read whole as REST reads them, paged here.
        result: CardConnection = _whole(
            "graphql:cards", data | {"key": key}, lambda: card_views(found), page
        )
        return result
