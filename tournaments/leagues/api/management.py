"""League management endpoints (the league's organizers): a member's token, a season's edits,
a webhook endpoint's secret, ping, deletion and delivery log. Thin interfaces over
``tournaments.leagues.managing`` and ``selectors``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from config.errors import NotFoundError
from config.throttling import CreateThrottle
from tournaments.api.auth import caller, organizer
from tournaments.api.views import ApiView, valid
from tournaments.leagues import managing, schedules, selectors
from tournaments.leagues.api import inputs


class MemberTokenView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str, handle: str) -> Response:
        claim = managing.member_token_reissue(
            organizer=organizer(request), slug=slug, handle=handle
        )
        body = {"member": handle, "claim_code": claim}
        return Response(body, status=status.HTTP_201_CREATED)


class SeasonDetailView(ApiView):
    @extend_schema(request=inputs.SeasonUpdateInput, responses=OpenApiTypes.OBJECT)
    def patch(self, request: Request, slug: str, season_id: int) -> Response:
        changes = valid(inputs.SeasonUpdateInput, request)
        season = managing.season_update(
            organizer=organizer(request), slug=slug, season_id=season_id, changes=changes
        )
        return Response(selectors.season_view(season, organizer=True))


class WebhookDetailView(ApiView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, endpoint_id: int) -> Response:
        managing.webhook_delete(organizer=organizer(request), slug=slug, endpoint_id=endpoint_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookSecretView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str, endpoint_id: int) -> Response:
        secret = managing.webhook_rotate(
            organizer=organizer(request), slug=slug, endpoint_id=endpoint_id
        )
        return Response({"id": endpoint_id, "secret": secret}, status=status.HTTP_201_CREATED)


class WebhookPingView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str, endpoint_id: int) -> Response:
        delivery = managing.webhook_ping(
            organizer=organizer(request), slug=slug, endpoint_id=endpoint_id
        )
        return Response(selectors.delivery_view(delivery), status=status.HTTP_201_CREATED)


class DeliveryListView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_delivery_list")
    def get(self, request: Request, slug: str, endpoint_id: int) -> Response:
        endpoint = managing.webhook_of(
            organizer=organizer(request), slug=slug, endpoint_id=endpoint_id
        )
        return Response({"results": selectors.delivery_list(endpoint)})


class DeliveryRetryView(ApiView):
    throttle_classes = [CreateThrottle]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request, slug: str, endpoint_id: int, delivery_id: int) -> Response:
        delivery = managing.delivery_retry(
            organizer=organizer(request),
            slug=slug,
            endpoint_id=endpoint_id,
            delivery_id=delivery_id,
        )
        return Response(selectors.delivery_view(delivery))


class ScheduleView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_schedule_read")
    def get(self, request: Request, slug: str, tournament_id: int) -> Response:
        caller(request)
        found = [s for s in schedules.calendar(slug) if s["tournament"] == tournament_id]
        if not found:
            raise NotFoundError("not_scheduled", _("This tournament has no scheduled start."))
        return Response(found[0])

    @extend_schema(request=inputs.ScheduleInput, responses={201: OpenApiTypes.OBJECT})
    def post(self, request: Request, slug: str, tournament_id: int) -> Response:
        data = valid(inputs.ScheduleInput, request)
        made = schedules.schedule_set(
            organizer=organizer(request), slug=slug, tournament_id=tournament_id, **data
        )
        return Response(schedules.schedule_view(made), status=status.HTTP_201_CREATED)


class CheckInView(ApiView):
    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    def post(self, request: Request, tournament_id: int) -> Response:
        checkin = schedules.seat_checkin(tournament_id=tournament_id, seat=caller(request))
        return Response({"seat": checkin.seat.number + 1, "checked_in_at": checkin.at})


class CalendarView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_calendar")
    def get(self, request: Request, slug: str) -> Response:
        caller(request)
        return Response({"results": schedules.calendar(slug)})
