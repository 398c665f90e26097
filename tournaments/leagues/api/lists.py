"""The one skeleton of every league list endpoint: a ``GET`` answering ``{"results": [...]}``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.views import ApiView

Rows = Callable[..., list[dict[str, Any]]]


def list_view(name: str, operation_id: str, rows: Rows) -> type[ApiView]:
    """A view whose ``GET`` answers ``rows(request, **path)`` (which checks who may read them)
    as ``{"results": rows}``; a path's actions are added to it by ``config.actions.rest_view``."""

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id=operation_id)
    def get(self: ApiView, request: Request, **path: Any) -> Response:
        return Response({"results": rows(request, **path)})

    return type(name, (ApiView,), {"get": get, "__module__": __name__})
