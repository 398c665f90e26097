"""League endpoints: thin interfaces over ``leagues.services`` and ``selectors``."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from apikit.actions import rest_view
from apikit.lists import list_view
from apikit.shapes import to_json
from leagues import actions, exports, inputs, lists, selectors
from leagues.rules import TIEBREAK
from leagues.shapes import (
    LeagueView,
    MemberHistory,
    Standings,
    TournamentResults,
)
from tournaments.api.views import ApiView
from tournaments.callers import caller, organizer

RATING = ("mu", "sigma", "ordinal")
CSV_COLUMNS = ("rank", "member", "kind", *TIEBREAK, "decided_by", *RATING)
PLACES = ("place", "member", "kind", "seat", "points", "fans", "champion", "finalist")
RESULT_COLUMNS = (*PLACES, *RATING)


class CsvRenderer(BaseRenderer):
    """``?format=csv``: one line per row of ``data["rows"]``, as ``leagues.exports``
    writes every CSV (a refusal is coded JSON, as everywhere: ``CsvView``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"
    columns: tuple[str, ...] = ()

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        rows = ({**row, **exports.rounded_rating(row.get("rating"))} for row in data["rows"])
        return exports.table(self.columns, rows, data.get("corrections", ()))


class CsvView(ApiView):
    """A view with a CSV variant whose refusals stay coded JSON (a CSV refusal would be
    replaced by the API's generic error for a non-JSON error page: infra.middleware)."""

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        response = super().finalize_response(request, response, *args, **kwargs)
        if isinstance(response, Response) and response.status_code >= 400:
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response


class StandingsCsvRenderer(CsvRenderer):
    columns = CSV_COLUMNS


class ResultsCsvRenderer(CsvRenderer):
    columns = RESULT_COLUMNS


LeagueListBase = list_view("LeagueListBase", lists.LEAGUES, ApiView)
MemberListBase = list_view("MemberListBase", lists.MEMBERS, ApiView)
WebhookListBase = list_view("WebhookListBase", lists.WEBHOOKS, ApiView)
CorrectionListBase = list_view("CorrectionListBase", lists.CORRECTIONS, ApiView)
EmbedSiteListBase = list_view("EmbedSiteListBase", lists.EMBED_SITES, ApiView)


class LeagueDetailView(ApiView):
    @extend_schema(responses=LeagueView)
    def get(self, request: Request, slug: str) -> Response:
        return Response(to_json(selectors.league_view(slug, organizer(request))))


class MemberBase(ApiView):
    @extend_schema(
        responses={
            200: MemberHistory,
            301: OpenApiResponse(
                description="A former handle of a renamed member: `Location` names its current "
                "address (docs/leagues.md)."
            ),
        }
    )
    def get(self, request: Request, slug: str, handle: str) -> HttpResponseBase:
        caller(request)
        renamed = selectors.member_renamed(slug, handle)
        if renamed is not None:  # a renamed member's old address stays good (docs/leagues.md)
            moved = request.path.removesuffix("/").rpartition("/")[0]
            return HttpResponsePermanentRedirect(f"{moved}/{quote(renamed, safe='')}/")
        return Response(to_json(selectors.member_history(slug, handle)))


class StandingsView(CsvView):
    renderer_classes = [JSONRenderer, StandingsCsvRenderer]
    query_parameters = frozenset(inputs.StandingsQuery().fields)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "season",
                {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
                description="A season id; default: the newest with a result.",
            ),
            OpenApiParameter(
                "kind",
                str,
                enum=["all", "human", "bot"],
                description="human or bot: rank that kind of member alone; default: all.",
            ),
            OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a CSV file."),
        ],
        responses={(200, "application/json"): Standings, (200, "text/csv"): str},
    )
    def get(self, request: Request, slug: str) -> Response:
        query = inputs.StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        standings = selectors.standings_view(slug, chosen.get("season"), chosen.get("kind", "all"))
        response = Response(to_json(standings))
        if query.validated_data.get("format") == "csv":
            name = f"{slug}-season-{standings.season}-standings.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class TournamentResultsView(CsvView):
    renderer_classes = [JSONRenderer, ResultsCsvRenderer]
    query_parameters = frozenset(inputs.FormatQuery().fields)

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a CSV file."),
        ],
        responses={(200, "application/json"): TournamentResults, (200, "text/csv"): str},
    )
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        caller(request)
        query = inputs.FormatQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        response = Response(to_json(selectors.tournament_results(slug, tournament_id)))
        if query.validated_data.get("format") == "csv":
            name = f"{slug}-tournament-{tournament_id}-results.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class SeasonLinesView(ApiView):
    @extend_schema(responses={(200, "application/x-ndjson"): str})
    def get(self, request: Request, slug: str, season_id: int) -> HttpResponse:
        lines = selectors.season_lines(slug, season_id)
        # DRF's encoder: times as every JSON answer writes them (ISO 8601, ``Z``).
        body = "".join(json.dumps(to_json(line), cls=JSONEncoder) + "\n" for line in lines)
        return HttpResponse(body, content_type="application/x-ndjson")


# The action views (``leagues.actions``: GraphQL's mutations come from the same
# declarations).
LeagueListView = rest_view("LeagueListView", (actions.CREATE_LEAGUE,), LeagueListBase)
SeasonCreateView = rest_view("SeasonCreateView", (actions.CREATE_SEASON,), ApiView)
SeasonTournamentView = rest_view("SeasonTournamentView", (actions.OPEN_SEASON_TOURNAMENT,), ApiView)
HostTournamentView = rest_view("HostTournamentView", (actions.HOST_SEASON_TOURNAMENT,), ApiView)
MemberJoinView = rest_view("MemberJoinView", (actions.JOIN_SEASON_TOURNAMENT,), ApiView)
MemberCreateView = rest_view("MemberCreateView", (actions.CREATE_MEMBER,), MemberListBase)
MemberClaimView = rest_view("MemberClaimView", (actions.CLAIM_MEMBER,), ApiView)
MemberDetailView = rest_view(
    "MemberDetailView", (actions.RENAME_MEMBER, actions.REMOVE_MEMBER), MemberBase
)
WebhookCreateView = rest_view("WebhookCreateView", (actions.CREATE_WEBHOOK,), WebhookListBase)
CorrectionListView = rest_view("CorrectionListView", (actions.CORRECT_RESULT,), CorrectionListBase)
EmbedSiteListView = rest_view("EmbedSiteListView", (actions.ADD_EMBED_SITE,), EmbedSiteListBase)
EmbedSiteDetailView = rest_view("EmbedSiteDetailView", (actions.REMOVE_EMBED_SITE,), ApiView)
