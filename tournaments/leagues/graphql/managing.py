"""The league organizer's lists over GraphQL: corrections, members, webhooks and deliveries as
connections, read through the selectors REST's views read (the actions are
``tournaments.leagues.actions``)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from config.graphql_pages import After, Before, First, Last, Page
from config.shapes import page
from tournaments.leagues import managing, selectors, services
from tournaments.leagues.graphql.queries import Slug, caller_organizer
from tournaments.leagues.graphql.types import (
    CorrectionConnection,
    DeliveryConnection,
    MemberConnection,
    WebhookConnection,
)

EndpointId = Annotated[int, strawberry.argument(description="The webhook endpoint's id.")]


def _organizer_of(info: strawberry.Info, slug: str) -> None:
    services.require_organizer(caller_organizer(info), services.league_of(slug))


@strawberry.type
class ManagementQuery:
    @strawberry.field(description="A league's corrections, oldest first: its audit trail.")
    def corrections(
        self,
        info: strawberry.Info,
        slug: Slug,
        first: First = None,
        after: After = None,
        last: Last = None,
        before: Before = None,
    ) -> CorrectionConnection:
        caller_organizer(info)
        return page(lambda: selectors.correction_list(slug), Page(first, after, last, before))

    @strawberry.field(description="A league's members (its organizers only).")
    def members(
        self,
        info: strawberry.Info,
        slug: Slug,
        first: First = None,
        after: After = None,
        last: Last = None,
        before: Before = None,
    ) -> MemberConnection:
        _organizer_of(info, slug)
        return page(lambda: selectors.member_list(slug), Page(first, after, last, before))

    @strawberry.field(description="A league's webhook endpoints (its organizers only).")
    def webhooks(
        self,
        info: strawberry.Info,
        slug: Slug,
        first: First = None,
        after: After = None,
        last: Last = None,
        before: Before = None,
    ) -> WebhookConnection:
        _organizer_of(info, slug)
        return page(lambda: selectors.webhook_list(slug), Page(first, after, last, before))

    @strawberry.field(description="An endpoint's newest 100 deliveries (its organizers only).")
    def webhook_deliveries(
        self,
        info: strawberry.Info,
        slug: Slug,
        id: EndpointId,
        first: First = None,
        after: After = None,
        last: Last = None,
        before: Before = None,
    ) -> DeliveryConnection:
        endpoint = managing.webhook_of(organizer=caller_organizer(info), slug=slug, endpoint_id=id)
        return page(lambda: selectors.delivery_list(endpoint), Page(first, after, last, before))
