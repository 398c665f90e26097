"""The league organizer's lists over GraphQL: corrections, members, webhooks and deliveries as
connections, read through the selectors REST's views read (the actions are
``tournaments.leagues.actions``)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from config.graphql_pages import Page, page_of, paged
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
    @paged()
    def corrections(
        self,
        info: strawberry.Info,
        slug: Slug,
        page: Page,
    ) -> CorrectionConnection:
        caller_organizer(info)
        return page_of(selectors.correction_list(slug), page)

    @strawberry.field(description="A league's members (its organizers only).")
    @paged()
    def members(
        self,
        info: strawberry.Info,
        slug: Slug,
        page: Page,
    ) -> MemberConnection:
        _organizer_of(info, slug)
        return page_of(selectors.member_list(slug), page)

    @strawberry.field(description="A league's webhook endpoints (its organizers only).")
    @paged()
    def webhooks(
        self,
        info: strawberry.Info,
        slug: Slug,
        page: Page,
    ) -> WebhookConnection:
        _organizer_of(info, slug)
        return page_of(selectors.webhook_list(slug), page)

    @strawberry.field(description="An endpoint's newest 100 deliveries (its organizers only).")
    @paged()
    def webhook_deliveries(
        self,
        info: strawberry.Info,
        slug: Slug,
        id: EndpointId,
        page: Page,
    ) -> DeliveryConnection:
        endpoint = managing.webhook_of(organizer=caller_organizer(info), slug=slug, endpoint_id=id)
        return page_of(selectors.delivery_list(endpoint), page)
