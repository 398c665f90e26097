"""League management endpoints, for the league's organizers.

Members: a member's token. Seasons: edits and deletion. Webhook endpoints: edits, secret, ping,
deletion and the delivery log. Schedules: a tournament's scheduled start and its deletion, a seat's
check-in, the league's calendar.

The actions are declared in ``leagues.actions``. GraphQL's mutations come from the same
declarations.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actions import rest_view
from apikit.lists import list_view
from apikit.openapi import operation
from apikit.shapes import to_json
from infra.errors import NotFoundError
from leagues import actions, lists
from leagues.services import schedules
from leagues.shapes import ScheduleView as ScheduleShape
from leagues.shapes import TournamentScheduleView
from tournaments.api.views import ApiView
from tournaments.callers import caller

DeliveryListView = list_view("DeliveryListView", lists.WEBHOOK_DELIVERIES, ApiView)
CalendarView = list_view("CalendarView", lists.CALENDAR, ApiView)


class ScheduleReadView(ApiView):
    @operation(
        "Read a tournament's scheduled start", "As the calendar shows it.", {404: ["not_scheduled"]}
    )
    @extend_schema(responses=ScheduleShape)
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        caller(request)
        found = [s for s in schedules.calendar(slug) if s.tournament == tournament_id]
        if not found:
            raise NotFoundError("not_scheduled", _("This tournament has no scheduled start."))
        return Response(to_json(found[0]))


class CheckInReadView(ApiView):
    @operation(
        "Read a tournament's scheduled start and check-in",
        "As the calendar shows it, with the league's `slug` and `you`: the calling seat (from 1) "
        "and whether it checked in (`null` without this tournament's seat token).",
        {401: ["bad_token"], 404: ["not_scheduled"]},
    )
    @extend_schema(responses=TournamentScheduleView)
    def get(self, request: Request, tournament_id: int) -> Response:
        seat = caller(request)
        found = schedules.tournament_schedule(tournament_id=tournament_id, seat=seat)
        return Response(to_json(found))


# The action views (``leagues.actions``).
MemberTokenView = rest_view("MemberTokenView", (actions.REISSUE_MEMBER_TOKEN,), ApiView)
SeasonDetailView = rest_view(
    "SeasonDetailView", (actions.UPDATE_SEASON, actions.DELETE_SEASON), ApiView
)
SeasonCloseView = rest_view("SeasonCloseView", (actions.CLOSE_SEASON,), ApiView)
SeasonReopenView = rest_view("SeasonReopenView", (actions.REOPEN_SEASON,), ApiView)
WebhookDetailView = rest_view(
    "WebhookDetailView", (actions.DELETE_WEBHOOK, actions.UPDATE_WEBHOOK), ApiView
)
WebhookSecretView = rest_view("WebhookSecretView", (actions.ROTATE_WEBHOOK_SECRET,), ApiView)
WebhookPingView = rest_view("WebhookPingView", (actions.PING_WEBHOOK,), ApiView)
DeliveryRetryView = rest_view("DeliveryRetryView", (actions.RETRY_DELIVERY,), ApiView)
ScheduleView = rest_view(
    "ScheduleView", (actions.SCHEDULE_START, actions.UNSCHEDULE_START), ScheduleReadView
)
CheckInView = rest_view("CheckInView", (actions.CHECK_IN,), CheckInReadView)
