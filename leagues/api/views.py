"""League endpoints: thin interfaces over ``leagues.services.leagues`` and ``selectors``."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from django.http import HttpResponse, HttpResponseNotModified, HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from django.utils.decorators import method_decorator
from django.utils.http import parse_etags
from django.views.decorators.gzip import gzip_page
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actions import rest_view
from apikit.lists import list_view
from apikit.openapi import operation
from apikit.shapes import to_json
from leagues import actions, inputs, lists
from leagues.rules.scoring import TIEBREAK
from leagues.selectors import exports, lines
from leagues.selectors import leagues as selectors
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
    """``?format=csv``: one line per row of ``data["rows"]``.

    ``leagues.selectors.exports`` writes it, as every CSV. A refusal is coded JSON, as everywhere
    (``CsvView``).
    """

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"
    columns: tuple[str, ...] = ()

    def render(
        self,
        data: exports.TableBody,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, object] | None = None,
    ) -> bytes:
        rows = ({**row, **exports.rounded_rating(row.get("rating"))} for row in data["rows"])
        return exports.table(self.columns, rows, data.get("corrections", ()))


class CsvView(ApiView):
    """A view with a CSV variant whose refusals stay coded JSON.

    The API's generic error replaces any non-JSON error page (infra.middleware). A CSV refusal would
    be lost that way.
    """

    def finalize_response(
        self, request: Request, response: Response, *args: object, **kwargs: object
    ) -> Response:
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
    @operation(
        "Read a league",
        "The league and its seasons (options, scoring table); the join codes only to its "
        "organizers.",
    )
    @extend_schema(responses=LeagueView)
    def get(self, request: Request, slug: str) -> Response:
        return Response(to_json(selectors.league_view(slug, organizer(request))))


class MemberBase(ApiView):
    @operation(
        "Read a member's history",
        "Each recorded tournament's place and points, with the rating after it and its change.",
        {404: ["unknown_member"]},
    )
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

    @operation(
        "Read a season's standings",
        "Rank, the tie-break vector (points, wins, finals, fans, played) and the criterion that "
        "decided each rank, with the league rating; `?kind=human|bot` ranks that kind alone; "
        "`?format=csv` for a CSV file. Without `?season=`: the newest season with a recorded "
        "result (the newest season when none has one).",
        {404: ["unknown_season"]},
    )
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

    @operation(
        "Read a league tournament's results",
        "Its results by place with each member's rating after it (none until it is recorded); "
        "`?format=csv` for a CSV file.",
        {404: ["not_league_tournament"]},
    )
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


def _held(request: Request) -> set[str]:
    """The versions ``If-None-Match`` names, weak or strong. A compressed answer's is weak."""
    return {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}


# Compressed when the client takes gzip (a full season is ~50 KB of JSON lines; its ETag then
# weak, as GZipMiddleware marks it).
@method_decorator(gzip_page, name="dispatch")
class SeasonLinesView(ApiView):
    query_parameters = frozenset(inputs.LinesQuery().fields)

    @operation(
        "Export a season as JSON lines",
        "One line per tournament (its results), each followed by its matches once finished. "
        "The `ETag` names the content's version: a poll sends it back (`If-None-Match`, or "
        "`?since=` for the tournaments that changed) and is answered `304` while nothing did.",
        {404: ["unknown_season"]},
    )
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since",
                {"type": "string", "pattern": "^[0-9a-f]{24}$"},
                description="A version read before (its `ETag`, unquoted): the answer holds "
                "only the tournaments that changed since it, with `Delta-Base` naming it, or "
                "every tournament (no `Delta-Base`) when the server no longer knows it; "
                "`304` when nothing changed. `If-None-Match` with the `ETag` answers `304` too.",
            ),
        ],
        responses={
            (200, "application/x-ndjson"): str,
            304: OpenApiResponse(description="Nothing changed since the version named."),
        },
    )
    def get(self, request: Request, slug: str, season_id: int) -> HttpResponseBase:
        query = inputs.LinesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        since = query.validated_data.get("since")
        found = lines.season_lines(slug, season_id)
        etag = f'"{found.version}"'
        if since == found.version or etag in _held(request):
            answer: HttpResponseBase = HttpResponseNotModified()
        else:
            answer = self._changed(found, since)
        answer["ETag"] = etag
        answer["Cache-Control"] = "no-cache"  # revalidate: a tournament may move on
        return answer

    @staticmethod
    def _changed(found: lines.SeasonLines, since: str | None) -> HttpResponse:
        """Every block, or those changed since ``since`` if the server knows that version."""
        changed = found.changed_since(since) if since else None
        found.remember()
        blocks = found.blocks if changed is None else changed
        answer = HttpResponse("".join(b.text for b in blocks), content_type="application/x-ndjson")
        if changed is not None:
            answer["Delta-Base"] = f'"{since}"'
        return answer


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
