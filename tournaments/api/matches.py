"""Match endpoints: the match as the caller may see it, its events, and live answers.

They live with the tournament's transports. A match is seen and answered as a tournament seat.
``matches`` itself knows no seats, viewers or HTTP.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actions import rest_view
from apikit.openapi import operation
from apikit.shapes import Many, to_json
from infra.errors import ApplicationError
from matches.observer import Viewer
from matches.selectors import ShownMatch, match_by_id, match_events, match_view
from matches.shapes import MatchEventView, MatchView
from tournaments import actions, inputs
from tournaments.api.views import ApiView
from tournaments.callers import caller
from tournaments.selectors.viewers import viewer_in


def _match(match_id: int) -> ShownMatch:
    return match_by_id(match_id)


def _viewer(request: Request, match: ShownMatch) -> Viewer:
    """The caller as a viewer of this match's tournament.

    A caller who sits elsewhere is a spectator.
    """
    return viewer_in(caller(request), match.tournament_id)


class MatchDetailView(ApiView):
    @operation(
        "Read a match",
        "The match as the caller may see it; `question` is the caller's pending question.",
    )
    @extend_schema(responses=MatchView)
    def get(self, request: Request, match_id: int) -> Response:
        match = _match(match_id)
        return Response(to_json(match_view(match, _viewer(request, match))))


class MatchEventsView(ApiView):
    query_parameters = frozenset({"after"})

    @operation(
        "Read a match's released events",
        "Frames numbered 1, 2, 3, … with no gap after `after`; an event you may not see is "
        "`hidden`.",
    )
    @extend_schema(
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="Events after seq N.")],
        responses=Many(MatchEventView),
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match(match_id)
        after = _after(request.query_params.get("after", "0"))
        return Response(to_json(match_events(match, _viewer(request, match), after=after)))


def _after(raw: object) -> int:
    value = inputs.whole_number(str(raw))
    if value is None:
        message = _("`after` must be a whole number from 0 to %(max)s.") % {
            "max": inputs.MAX_NUMBER
        }
        raise ApplicationError("invalid", message, {"after": str(raw)[:32]})
    return value


# The answer's view, made from its declaration (``tournaments.actions``: GraphQL's ``answer``
# mutation comes from the same one).
MatchAnswerView = rest_view("MatchAnswerView", (actions.ANSWER,), ApiView)
