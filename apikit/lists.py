"""One declaration per list a caller may read, two transports made from it.

``apikit.actions`` does the same for a write. A ``Listed`` names the list:

- the identifiers REST reads from its path and GraphQL from its arguments
  (``apikit.actions.Ident``);
- the rows, ``rows(call)``. It gets the same ``Call`` an action gets. It checks who may read
  the rows, then reads them.
- the listing shape it answers (``apikit.shapes.listing``).

The item's GraphQL type may be its model's (``apikit.graphql_models``). Then ``query(call)``
checks the caller alike and answers the rows' queryset. GraphQL reads a page of it through
strawberry-django's optimizer.

``list_view`` makes the REST view's ``GET`` (``{"results": [...]}``). ``connection_field`` makes
the GraphQL root field: a connection of the listing's item. It is paged by
``apikit.graphql_pages.paged``, which checks its arguments before anything is read. Adding a list
is one declaration and a URL route.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import strawberry
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.actions import Call, Ident
from apikit.global_ids import described, number_of
from apikit.graphql import authorization
from apikit.graphql_models import counted_page, optimized
from apikit.graphql_pages import Page, page_of, paged
from apikit.openapi import Operation, document
from apikit.shapes import LISTINGS, Shape, connection_type, to_json


@dataclass(frozen=True)
class Listed:
    name: str  # snake_case: the GraphQL root field is its camelCase
    description: str  # GraphQL's (REST's is ``operation``'s)
    listing: type[Shape]  # made by ``apikit.shapes.listing``
    rows: Callable[[Call], Sequence[Shape]]
    path: tuple[Ident, ...] = ()
    operation: Operation | None = None  # REST's summary, description and refusals (OpenAPI)
    query: Callable[[Call], QuerySet[Any]] | None = None  # GraphQL's rows, if a model's


# REST ------------------------------------------------------------------------------------------


def list_view(name: str, listed: Listed, base: type[APIView]) -> type[APIView]:
    """A view whose ``GET`` answers ``listed``'s listing.

    ``apikit.actions.rest_view`` adds a path's actions to it."""

    @extend_schema(responses=listed.listing)  # its id: apikit.openapi.OperationSchema
    def get(self: APIView, request: Request, **path: object) -> Response:  # path: URL kwargs
        named = {ident.input_name: path[ident.name] for ident in listed.path}
        call = Call(request.headers.get("Authorization", ""), named)
        return Response(to_json(listed.listing(**{"results": listed.rows(call)})))

    document(get, listed.operation)
    # ``listed``: the bridge test reads which declaration made the view.
    return type(name, (base,), {"get": get, "listed": listed, "__module__": base.__module__})


# GraphQL ---------------------------------------------------------------------------------------

# Every list a root field was made of, by name: two declarations of one name fail at import.
LISTS: dict[str, Listed] = {}


def connection_field(listed: Listed) -> object:
    """The root field of ``listed``: ``name(<path>, first, after, last, before):
    <Item>Connection!``."""
    if LISTS.setdefault(listed.name, listed) is not listed:
        raise ValueError(f"two lists are named {listed.name}")

    nodes = {ident.input_name: ident.nodes for ident in listed.path if ident.nodes}

    def resolve(info: strawberry.Info, page: Page, **given: str | int) -> object:
        for name, kinds in nodes.items():  # a global id, or its number (deprecated)
            given[name] = number_of(given[name], name, kinds)
        call = Call(authorization(info), given)
        if listed.query is not None:
            return counted_page(optimized(listed.query(call), info), page)
        return page_of(listed.rows(call), page)

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter("info", keyword, annotation=strawberry.Info)]
    for ident in listed.path:
        parameters.append(inspect.Parameter(ident.input_name, keyword, annotation=_typed(ident)))
    parameters.append(inspect.Parameter("page", keyword, annotation=Page))
    made = connection_type(LISTINGS[listed.listing])
    resolve.__signature__ = inspect.Signature(parameters, return_annotation=made)  # type: ignore[attr-defined]
    resolve.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": made}
    resolver = paged()(resolve)  # ``first``/``after``/``last``/``before``, checked first
    resolver.listed = listed  # type: ignore[attr-defined]  # read by the bridge test
    return strawberry.field(resolver, description=listed.description)


def _typed(ident: Ident) -> object:
    """A path identifier's argument: an ``ID`` for a ``Node``, else its type."""
    if not ident.nodes:
        return Annotated[ident.type, strawberry.argument(description=ident.description)]
    text = described(ident.description, ident.nodes)
    return Annotated[strawberry.ID, strawberry.argument(description=text)]
