"""Card statistics from stored play.

``GET /api/v1/cards/{key}/stats/`` (key "Set/Name") and ``GET /api/v1/card-sets/{name}/stats/``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.shapes import to_json
from tournaments.api.views import ApiView
from tournaments.cardstats_shapes import DesignStats, SetStats
from tournaments.inputs import PageQuery
from tournaments.selectors.cardstats import card_stats, set_stats


def _page(request: Request) -> dict[str, int]:
    query = PageQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return {"limit": query.validated_data["limit"], "offset": query.validated_data["offset"]}


class CardStatsView(ApiView):
    query_parameters = frozenset(PageQuery().fields)

    @extend_schema(parameters=[PageQuery], responses=DesignStats)
    def get(self, request: Request, key: str) -> Response:
        """A design's figures; ``by_sets`` paged with ``limit`` (1-100) and ``offset``."""
        return Response(to_json(card_stats(key=key, **_page(request))))


class SetStatsView(ApiView):
    query_parameters = frozenset(PageQuery().fields)

    @extend_schema(parameters=[PageQuery], responses=SetStats)
    def get(self, request: Request, name: str) -> Response:
        """A set's figures; ``by_sets`` paged with ``limit`` (1-100) and ``offset``."""
        return Response(to_json(set_stats(name=name, **_page(request))))
