"""The league organizer's lists over GraphQL: corrections, members, webhooks and deliveries, read
through the selectors REST's views read (the actions are ``tournaments.leagues.actions``)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from tournaments.leagues import managing, selectors, services
from tournaments.leagues.graphql.queries import Slug, caller_organizer
from tournaments.leagues.graphql.types import CorrectionView, Delivery, MemberItem, WebhookItem

EndpointId = Annotated[int, strawberry.argument(description="The webhook endpoint's id.")]


def _organizer_of(info: strawberry.Info, slug: str) -> None:
    services.require_organizer(caller_organizer(info), services.league_of(slug))


@strawberry.type
class ManagementQuery:
    @strawberry.field(description="A league's corrections, oldest first: its audit trail.")
    def corrections(self, info: strawberry.Info, slug: Slug) -> list[CorrectionView]:
        caller_organizer(info)
        return [CorrectionView(**c) for c in selectors.correction_list(slug)]

    @strawberry.field(description="A league's members (its organizers only).")
    def members(self, info: strawberry.Info, slug: Slug) -> list[MemberItem]:
        _organizer_of(info, slug)
        return [MemberItem(**m) for m in selectors.member_list(slug)]

    @strawberry.field(description="A league's webhook endpoints (its organizers only).")
    def webhooks(self, info: strawberry.Info, slug: Slug) -> list[WebhookItem]:
        _organizer_of(info, slug)
        return [WebhookItem(**w) for w in selectors.webhook_list(slug)]

    @strawberry.field(description="An endpoint's newest 100 deliveries (its organizers only).")
    def webhook_deliveries(
        self, info: strawberry.Info, slug: Slug, id: EndpointId
    ) -> list[Delivery]:
        endpoint = managing.webhook_of(organizer=caller_organizer(info), slug=slug, endpoint_id=id)
        return [Delivery(**d) for d in selectors.delivery_list(endpoint)]
