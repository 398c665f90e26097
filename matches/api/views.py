"""Match endpoints: the match as the caller may see it, its events, and live answers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from config.errors import ApplicationError, NotFoundError
from config.throttling import ActionThrottle
from matches import services
from matches.models import Match
from matches.selectors import match_events, match_view
from tournaments.api import inputs, outputs
from tournaments.api.auth import caller
from tournaments.api.views import ApiView, _valid
from tournaments.models import Seat
from tournaments.services.clock import tournament_tick


def _match(match_id: int) -> Match:
    match = Match.objects.select_related("seat_a", "seat_b", "winner").filter(pk=match_id).first()
    if match is None:
        raise NotFoundError("not_found", "No such match.")
    return match


def _viewer(request: Request, match: Match) -> Seat | None:
    seat = caller(request)
    return seat if seat is not None and seat.tournament_id == match.tournament_id else None


class MatchDetailView(ApiView):
    @extend_schema(responses=outputs.MatchOut)
    def get(self, request: Request, match_id: int) -> Response:
        tournament_tick(tournament_id=_match(match_id).tournament_id)
        match = _match(match_id)
        return Response(match_view(match, _viewer(request, match)))


class MatchAnswerView(ApiView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=inputs.AnswerInput, responses=outputs.MatchOut)
    def post(self, request: Request, match_id: int) -> Response:
        data = _valid(inputs.AnswerInput, request)
        services.match_answer(
            match_id=match_id,
            seat=caller(request),
            question=data["question"],
            answer=data["answer"],
        )
        match = _match(match_id)
        return Response(match_view(match, _viewer(request, match)))


class MatchEventsView(ApiView):
    @extend_schema(
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="Events after seq N.")],
        responses=outputs.EventOut(many=True),
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match(match_id)
        after = _after(request.query_params.get("after", "0"))
        return Response(match_events(match, _viewer(request, match), after=after))


def _after(raw: Any) -> int:
    value = inputs.whole_number(str(raw))
    if value is None:
        message = f"`after` must be a whole number from 0 to {inputs.MAX_NUMBER}."
        raise ApplicationError("invalid", message, {"after": str(raw)[:32]})
    return value
