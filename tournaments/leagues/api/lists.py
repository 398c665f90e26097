"""The one skeleton of every league list endpoint: a ``GET`` answering its listing shape,
``{"results": [...]}`` (``tournaments.leagues.shapes``: ``LeagueList``, ``MemberList``, …)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from config.shapes import Shape, to_json
from tournaments.api.views import ApiView

Rows = Callable[..., Sequence[Shape]]


def list_view(name: str, operation_id: str, listing: type[Shape], rows: Rows) -> type[ApiView]:
    """A view whose ``GET`` answers ``listing(results=rows(request, **path))`` (``rows`` checks
    who may read them; OpenAPI describes ``listing``); a path's actions are added to it by
    ``config.actions.rest_view``."""

    @extend_schema(responses=listing, operation_id=operation_id)
    def get(self: ApiView, request: Request, **path: Any) -> Response:
        return Response(to_json(listing(**{"results": rows(request, **path)})))

    return type(name, (ApiView,), {"get": get, "__module__": __name__})
