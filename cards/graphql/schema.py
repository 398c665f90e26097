"""Card sets and cards: the root ``Query`` fields ``cardSets`` and ``cards``, and their nodes.

The types are strawberry-django types of the models (``cards.graphql.types``). Each resolver hands
strawberry-django's optimizer its queryset. So a page's statements stay fixed whatever its length. A
page read is cached per catalogue version, for the query that asked it. A filter's closed sets (box,
level, timing) are enums. The others are strings: a set's name, a keyword, words. REST's FilterSet
checks them, as it checks REST's query."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import strawberry
from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext as _
from django_filters import FilterSet
from graphql import print_ast
from strawberry.types.nodes import get_variable_values
from strawberry_django.optimizer import optimize

from apikit.enums import plain
from apikit.graphql import Connection, require_known_caller
from apikit.graphql_models import optimized
from apikit.graphql_pages import Page, paged, window
from cards import models
from cards.cache import cached_named
from cards.enums import Box, CardLevel, CardSetKind, CardTiming
from cards.filters import CardFilter, CardSetFilter
from cards.graphql.types import Card, CardConnection, CardSet, CardSetConnection
from cards.selectors import Lookup, card_lookup, card_set_lookup, card_set_rows, first_of
from infra.errors import ApplicationError

M = TypeVar("M", bound=Model)

BoxArgument = Annotated[Box | None, strawberry.argument(description="BASE or BEACH_CUP.")]


def _filtered(
    filterset: type[FilterSet], data: Mapping[str, object], queryset: QuerySet[M]
) -> QuerySet[M]:
    """``queryset`` through the REST FilterSet: a bad value is ``invalid``, as in REST."""
    given = _given(data)
    applied = filterset(data=given, queryset=queryset)
    if not applied.is_valid():
        errors = {k: [str(m) for m in v] for k, v in applied.errors.items()}
        raise ApplicationError("invalid", _("Invalid input."), errors)
    return applied.qs


def _given(data: Mapping[str, object]) -> dict[str, object]:
    return {name: plain(value) for name, value in data.items() if value is not None}


def _cached_page(
    info: strawberry.Info,
    page: Page,
    rows: Callable[[], QuerySet[M]],
    read: Callable[[QuerySet[M]], list[M]] = list,
) -> Connection[M]:
    """``page`` of the queryset ``rows`` makes, filtered and optimised.

    As with REST's answers, it is read once per catalogue version and language for each query. A
    page read again costs no statement. Its key names its content, so its completed answer is
    reused too (``apikit.graphql_execution``)."""
    (found, start, total), key = cached_named(
        "graphql:page", _asked(info), lambda: _read_page(rows(), page, read)
    )
    connection = window(found, page, start=start, total=total)
    connection.completion_key = key.encode()
    return connection


def _read_page(
    queryset: QuerySet[M], page: Page, read: Callable[[QuerySet[M]], list[M]]
) -> tuple[list[M], int, int]:
    """The page's rows, its first position and the list's length: two statements."""
    total = queryset.count()
    start, stop = page.bounds(total)
    return read(queryset[start:stop]), start, total


def _asked(info: strawberry.Info) -> str:
    """What the field of ``info`` asks, named by document, operation, variables and place.

    The same name means the same filters, page and selection, so the same optimised query."""
    raw = info._raw_info
    operation = raw.operation
    document = operation.loc.source.body if operation.loc else print_ast(operation)
    name = operation.name.value if operation.name else None
    asked = (document, name, raw.path.as_list(), get_variable_values(raw))
    return hashlib.sha256(repr(asked).encode()).hexdigest()


def _node(
    model: type[M], name: str, read: Callable[[QuerySet[M]], list[M]] = list
) -> Callable[[strawberry.Info, int], M]:
    def found(info: strawberry.Info, number: int) -> M:
        require_known_caller(info)
        rows = optimize(model._default_manager.all(), info)
        return first_of(rows, Lookup((Q(pk=number),), {name: number}), read)

    return found


# The catalogue's ``Node`` s (``Card:5``, ``CardSet:2``), as ``tournaments.graphql.queries.NODES``
# holds them: how many numbers the id holds, and its reader. ``server.schema`` adds them to
# ``node(id:)`` (the cards import no other app).
NODES: dict[str, tuple[int, Callable[..., Any]]] = {
    "Card": (1, _node(models.Card, "card")),
    "CardSet": (1, _node(models.CardSet, "card_set", card_set_rows)),
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
        found: Card = first_of(optimize(models.Card.objects.all(), info), card_lookup(key), list)
        return found

    @strawberry.field(description="One card set by its name, with its designs.")
    def card_set(
        self,
        info: strawberry.Info,
        name: Annotated[str, strawberry.argument(description="The set's name.")],
    ) -> CardSet:
        require_known_caller(info)
        sets = optimize(models.CardSet.objects.all(), info)
        found: CardSet = first_of(sets, card_set_lookup(name), card_set_rows)
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

        def rows() -> QuerySet[models.CardSet]:
            found = _filtered(CardSetFilter, data, models.CardSet.objects.all())
            return optimized(found, info)

        result: CardSetConnection = _cached_page(info, page, rows, card_set_rows)
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

        def rows() -> QuerySet[models.Card]:
            found = _filtered(CardFilter, data, models.Card.objects.all())
            if key is not None:
                set_name, _slash, name = key.partition("/")
                found = found.filter(card_set__name=set_name, name=name)
            return optimized(found, info)

        result: CardConnection = _cached_page(info, page, rows)
        return result
