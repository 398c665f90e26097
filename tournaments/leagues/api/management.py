"""League management endpoints (the league's organizers): a member's token, a season's edits,
a webhook endpoint's secret, ping, deletion and delivery log. The actions are declared in
``tournaments.leagues.actions`` (GraphQL's mutations come from the same declarations)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from config.actions import rest_view
from tournaments.api.auth import organizer
from tournaments.api.views import ApiView
from tournaments.leagues import actions, managing, selectors


class DeliveryListView(ApiView):
    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="league_delivery_list")
    def get(self, request: Request, slug: str, endpoint_id: int) -> Response:
        endpoint = managing.webhook_of(
            organizer=organizer(request), slug=slug, endpoint_id=endpoint_id
        )
        return Response({"results": selectors.delivery_list(endpoint)})


# The action views (``tournaments.leagues.actions``).
MemberTokenView = rest_view("MemberTokenView", (actions.REISSUE_MEMBER_TOKEN,), ApiView)
SeasonDetailView = rest_view("SeasonDetailView", (actions.UPDATE_SEASON,), ApiView)
WebhookDetailView = rest_view("WebhookDetailView", (actions.DELETE_WEBHOOK,), ApiView)
WebhookSecretView = rest_view("WebhookSecretView", (actions.ROTATE_WEBHOOK_SECRET,), ApiView)
WebhookPingView = rest_view("WebhookPingView", (actions.PING_WEBHOOK,), ApiView)
DeliveryRetryView = rest_view("DeliveryRetryView", (actions.RETRY_DELIVERY,), ApiView)
