"""League endpoints: thin interfaces over ``tournaments.leagues.services`` and ``selectors``."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from config.throttling import CreateThrottle, JoinThrottle
from tournaments.api.auth import caller, organizer
from tournaments.api.views import ApiView, valid
from tournaments.leagues import corrections, exports, managing, selectors, services
from tournaments.leagues.api import inputs
from tournaments.leagues.rules import TIEBREAK
from tournaments.services.lobby import SeatTicket

RATING = ("mu", "sigma", "ordinal")
CSV_COLUMNS = ("rank", "member", "kind", *TIEBREAK, "decided_by", *RATING)
PLACES = ("place", "member", "kind", "seat", "points", "fans", "champion", "finalist")
RESULT_COLUMNS = (*PLACES, *RATING)


class CsvRenderer(BaseRenderer):
    """``?format=csv``: one line per row of ``data["rows"]``, as ``tournaments.leagues.exports``
    writes every CSV (a refusal is coded JSON, as everywhere: ``CsvView``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"
    columns: tuple[str, ...] = ()

    def render(
        self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
    ) -> bytes:
        rows = ({**row, **exports.rounded_rating(row.get("rating"))} for row in data["rows"])
        return exports.table(self.columns, rows)


class CsvView(ApiView):
    """A view with a CSV variant whose refusals stay coded JSON (a CSV refusal would be
    replaced by the API's generic error for a non-JSON error page: config.middleware)."""

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


def _ticket(ticket: SeatTicket) -> dict[str, Any]:
    return {
        "id": ticket.tournament.pk,
        "code": ticket.tournament.code,
        "seat": {"id": ticket.seat.number, "token": ticket.token},
    }


class LeagueListView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_list")
    def get(self, request: Request) -> Response:
        caller(request)
        return Response({"results": selectors.league_list()})

    @extend_schema(request=inputs.LeagueInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = valid(inputs.LeagueInput, request)
        league = services.league_create(organizer=organizer(request), **data)
        return Response(selectors.league_view(league.slug, None), status=status.HTTP_201_CREATED)


class LeagueDetailView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        return Response(selectors.league_view(slug, organizer(request)))


class SeasonCreateView(ApiView):
    @extend_schema(request=inputs.SeasonInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str) -> Response:
        data = valid(inputs.SeasonInput, request)
        scoring = data.pop("scoring", None)
        options = inputs.tournament_options(data)
        season = services.season_create(
            organizer=organizer(request),
            slug=slug,
            name=data["name"],
            starts_on=data["starts_on"],
            ends_on=data["ends_on"],
            scoring=dict(scoring) if scoring else None,
            bots_allowed=data["bots_allowed"],
            advice_allowed=data["advice_allowed"],
            **options,
        )
        return Response(
            selectors.season_view(season, organizer=True), status=status.HTTP_201_CREATED
        )


class SeasonTournamentView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=inputs.SeasonTournamentInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str, season_id: int) -> Response:
        data = valid(inputs.SeasonTournamentInput, request)
        services.require_season_in(slug, season_id)
        tournament = services.season_tournament_organize(
            organizer=organizer(request),
            season_id=season_id,
            seat_count=data["seats"],
            deck_deadline_seconds=data["deck_deadline_seconds"],
            answer_deadline_seconds=data["answer_deadline_seconds"],
            **inputs.tournament_options(data),
        )
        body = {"id": tournament.pk, "code": tournament.code, "seat": None}
        return Response(body, status=status.HTTP_201_CREATED)


class HostTournamentView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=inputs.HostTournamentInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = valid(inputs.HostTournamentInput, request)
        ticket = services.season_tournament_host(
            join_code=data["join_code"],
            host_name=data["name"],
            member_token=data.get("member_token"),
            seat_count=data["seats"],
            deck_deadline_seconds=data["deck_deadline_seconds"],
            answer_deadline_seconds=data["answer_deadline_seconds"],
            **inputs.tournament_options(data),
        )
        return Response(_ticket(ticket), status=status.HTTP_201_CREATED)


class MemberJoinView(ApiView):
    throttle_classes = [JoinThrottle]

    @extend_schema(request=inputs.MemberJoinInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request) -> Response:
        data = valid(inputs.MemberJoinInput, request)
        ticket = services.league_seat_join(
            code=data["code"], name=data.get("name"), member_token=data["member_token"]
        )
        return Response(_ticket(ticket), status=status.HTTP_201_CREATED)


class MemberCreateView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_member_list")
    def get(self, request: Request, slug: str) -> Response:
        services.require_organizer(organizer(request), services.league_of(slug))
        return Response({"results": selectors.member_list(slug)})

    @extend_schema(request=inputs.MemberInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str) -> Response:
        data = valid(inputs.MemberInput, request)
        member, claim = services.member_create(
            organizer=organizer(request), slug=slug, handle=data["handle"]
        )
        body = {"member": member.handle, "kind": member.kind, "claim_code": claim}
        return Response(body, status=status.HTTP_201_CREATED)


class MemberClaimView(ApiView):
    throttle_classes = [JoinThrottle]

    @extend_schema(request=inputs.ClaimInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str) -> Response:
        data = valid(inputs.ClaimInput, request)
        member, token = services.member_claim(slug=slug, claim_code=data["claim_code"])
        body = {"member": member.handle, "token": token}
        return Response(body, status=status.HTTP_201_CREATED)


class MemberDetailView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str, handle: str) -> Response:
        caller(request)
        return Response(selectors.member_history(slug, handle))

    @extend_schema(request=inputs.MemberInput, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, slug: str, handle: str) -> Response:
        data = valid(inputs.MemberInput, request)
        member = managing.member_rename(
            organizer=organizer(request), slug=slug, handle=handle, new=data["handle"]
        )
        return Response({"member": member.handle, "kind": member.kind})

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, handle: str) -> Response:
        managing.member_remove(organizer=organizer(request), slug=slug, handle=handle)
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): str},
    )
    def get(self, request: Request, slug: str) -> Response:
        query = inputs.StandingsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        chosen = query.validated_data
        standings = selectors.standings_view(slug, chosen.get("season"), chosen.get("kind", "all"))
        response = Response(standings)
        if query.validated_data.get("format") == "csv":
            name = f"{slug}-season-{standings['season']}-standings.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class TournamentResultsView(CsvView):
    renderer_classes = [JSONRenderer, ResultsCsvRenderer]
    query_parameters = frozenset(inputs.FormatQuery().fields)

    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a CSV file."),
        ],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/csv"): str},
    )
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        caller(request)
        query = inputs.FormatQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        response = Response(selectors.tournament_results(slug, tournament_id))
        if query.validated_data.get("format") == "csv":
            name = f"{slug}-tournament-{tournament_id}-results.csv"
            response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class SeasonLinesView(ApiView):
    @extend_schema(responses={(200, "application/x-ndjson"): str})
    def get(self, request: Request, slug: str, season_id: int) -> HttpResponse:
        lines = selectors.season_lines(slug, season_id)
        body = "".join(json.dumps(line, default=str) + "\n" for line in lines)
        return HttpResponse(body, content_type="application/x-ndjson")


class WebhookCreateView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_webhook_list")
    def get(self, request: Request, slug: str) -> Response:
        services.require_organizer(organizer(request), services.league_of(slug))
        return Response({"results": selectors.webhook_list(slug)})

    @extend_schema(request=inputs.WebhookInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str) -> Response:
        data = valid(inputs.WebhookInput, request)
        endpoint, secret = services.webhook_create(
            organizer=organizer(request), slug=slug, url=data["url"], events=data["events"]
        )
        body = {"id": endpoint.pk, "url": endpoint.url, "events": endpoint.events, "secret": secret}
        return Response(body, status=status.HTTP_201_CREATED)


class CorrectionListView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_correction_list")
    def get(self, request: Request, slug: str) -> Response:
        caller(request)
        return Response({"results": selectors.correction_list(slug)})

    @extend_schema(request=inputs.CorrectionInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str) -> Response:
        data = valid(inputs.CorrectionInput, request)
        made = corrections.correction_create(
            organizer=organizer(request), slug=slug, **inputs.correction_arguments(data)
        )
        return Response(selectors.correction_view(made), status=status.HTTP_201_CREATED)
