"""The league organizer's corrections and management over GraphQL: the REST endpoints'
(``tournaments.leagues.api.views`` and ``management``) inputs, services, answers and refusals."""

from __future__ import annotations

import datetime
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from config.graphql import Error
from config.throttling import CreateThrottle
from tournaments.graphql.mutations import valid
from tournaments.leagues import corrections, managing, selectors, services
from tournaments.leagues.api import inputs
from tournaments.leagues.graphql.mutations import SeasonPayload, _body, refusable
from tournaments.leagues.graphql.queries import Slug, caller_organizer
from tournaments.leagues.graphql.types import CorrectionView, NewMember, SeasonView

Handle = Annotated[str, strawberry.argument(description="The member's handle.")]
EndpointId = Annotated[int, strawberry.argument(description="The webhook endpoint's id.")]


@strawberry.type(description="A member as its league's organizers see it (no secret).")
class MemberItem:
    member: str = strawberry.field(description="Its handle.")
    kind: str = strawberry.field(description="human or bot.")
    bot_level: str | None = strawberry.field(description="A bot's strength.")
    claimed: bool = strawberry.field(description="Its token is claimed.")
    created_at: datetime.datetime = strawberry.field(description="When it was made.")


@strawberry.type(description="A webhook endpoint without its secret.")
class WebhookItem:
    id: int = strawberry.field(description="Endpoint id.")
    url: str = strawberry.field(description="Where deliveries are posted.")
    events: list[str] = strawberry.field(description="Event kinds sent (empty: all).")
    active: bool = strawberry.field(description="Whether it is sent to.")
    last_sequence: int = strawberry.field(description="The last event's sequence number.")
    created_at: datetime.datetime = strawberry.field(description="When it was made.")


@strawberry.type(description="One delivery of an event to an endpoint (the delivery log).")
class Delivery:
    id: int = strawberry.field(description="Delivery id.")
    kind: str = strawberry.field(description="The event kind.")
    sequence: int = strawberry.field(description="The event's number for its endpoint.")
    idempotency_key: str = strawberry.field(description="The event's id.")
    status: str = strawberry.field(description="pending, delivered or failed.")
    attempts: int = strawberry.field(description="Attempts made.")
    last_status: int | None = strawberry.field(description="The last answer's HTTP status.")
    last_error: str = strawberry.field(description="The last attempt's error.")
    created_at: datetime.datetime = strawberry.field(description="When it was logged.")
    last_attempt_at: datetime.datetime | None = strawberry.field(description="Last attempt.")
    delivered_at: datetime.datetime | None = strawberry.field(description="When delivered.")


@strawberry.type(description="A webhook endpoint's new signing secret, shown once.")
class WebhookSecret:
    id: int = strawberry.field(description="Endpoint id.")
    secret: str = strawberry.field(description="The new signing secret.")


@strawberry.type(description="Done: the thing asked for is gone.")
class Done:
    ok: bool = strawberry.field(description="Always true.")


CorrectionPayload = Annotated[
    CorrectionView | Error, strawberry.union("CorrectionPayload", description="Or why not.")
]
MemberItemPayload = Annotated[
    MemberItem | Error, strawberry.union("MemberItemPayload", description="Or why not.")
]
ClaimCodePayload = Annotated[
    NewMember | Error, strawberry.union("ClaimCodePayload", description="Or why not.")
]
DeliveryPayload = Annotated[
    Delivery | Error, strawberry.union("DeliveryPayload", description="Or why not.")
]
WebhookSecretPayload = Annotated[
    WebhookSecret | Error, strawberry.union("WebhookSecretPayload", description="Or why not.")
]
DonePayload = Annotated[Done | Error, strawberry.union("DonePayload", description="Or why not.")]


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


@strawberry.type
class ManagementMutation:
    @strawberry.mutation(description="A league's organizer corrects a recorded result.")
    def correct_result(
        self,
        info: strawberry.Info,
        slug: Slug,
        kind: Annotated[
            str, strawberry.argument(description="disqualify, manual_result or forfeit.")
        ],
        reason: Annotated[str, strawberry.argument(description="Why (the audit trail).")],
        tournament: Annotated[int | None, strawberry.argument(description="Its id.")] = None,
        season: Annotated[int | None, strawberry.argument(description="A season id.")] = None,
        member: Annotated[str | None, strawberry.argument(description="A handle.")] = None,
        places: Annotated[JSON | None, strawberry.argument(description="handle → place.")] = None,
        match: Annotated[int | None, strawberry.argument(description="A match id.")] = None,
    ) -> CorrectionPayload:
        body = {k: v for k, v in _body(locals()).items() if v is not None and k != "slug"}

        def run() -> CorrectionView:
            data = valid(inputs.CorrectionInput, body)
            made = corrections.correction_create(
                organizer=caller_organizer(info), slug=slug, **inputs.correction_arguments(data)
            )
            return CorrectionView(**selectors.correction_view(made))

        result: CorrectionView | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A league's organizer renames a human member.")
    def rename_member(
        self, info: strawberry.Info, slug: Slug, handle: Handle, new_handle: Handle
    ) -> MemberItemPayload:
        def run() -> MemberItem:
            data = valid(inputs.MemberInput, {"handle": new_handle})
            organizer = caller_organizer(info)
            managing.member_rename(
                organizer=organizer, slug=slug, handle=handle, new=data["handle"]
            )
            return next(
                MemberItem(**m)
                for m in selectors.member_list(slug)
                if m["member"] == data["handle"]
            )

        result: MemberItem | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A league's organizer removes a member with no record.")
    def remove_member(self, info: strawberry.Info, slug: Slug, handle: Handle) -> DonePayload:
        def run() -> Done:
            managing.member_remove(organizer=caller_organizer(info), slug=slug, handle=handle)
            return Done(ok=True)

        result: Done | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A new claim code for a member; its token stops working.")
    def reissue_member_token(
        self, info: strawberry.Info, slug: Slug, handle: Handle
    ) -> ClaimCodePayload:
        def run() -> NewMember:
            claim = managing.member_token_reissue(
                organizer=caller_organizer(info), slug=slug, handle=handle
            )
            return NewMember(member=handle, kind="human", claim_code=claim)

        result: NewMember | Error = refusable(run, info, CreateThrottle)
        return result

    @strawberry.mutation(description="A league's organizer edits or archives a season.")
    def update_season(
        self,
        info: strawberry.Info,
        slug: Slug,
        season_id: Annotated[int, strawberry.argument(description="The season's id.")],
        name: Annotated[str | None, strawberry.argument(description="Its name.")] = None,
        starts_on: Annotated[str | None, strawberry.argument(description="YYYY-MM-DD.")] = None,
        ends_on: Annotated[str | None, strawberry.argument(description="YYYY-MM-DD.")] = None,
        bots_allowed: Annotated[bool | None, strawberry.argument(description="Bots.")] = None,
        advice_allowed: Annotated[bool | None, strawberry.argument(description="Advice.")] = None,
        archived: Annotated[bool | None, strawberry.argument(description="Archived.")] = None,
    ) -> SeasonPayload:
        given = {k: v for k, v in _body(locals()).items() if v is not None}
        body = {k: v for k, v in given.items() if k not in ("slug", "season_id")}

        def run() -> SeasonView:
            changes = valid(inputs.SeasonUpdateInput, body)
            season = managing.season_update(
                organizer=caller_organizer(info), slug=slug, season_id=season_id, changes=changes
            )
            return SeasonView.of(selectors.season_view(season, organizer=True))

        result: SeasonView | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A league's organizer deletes a webhook endpoint.")
    def delete_webhook(self, info: strawberry.Info, slug: Slug, id: EndpointId) -> DonePayload:
        def run() -> Done:
            managing.webhook_delete(organizer=caller_organizer(info), slug=slug, endpoint_id=id)
            return Done(ok=True)

        result: Done | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A new signing secret for an endpoint (shown once).")
    def rotate_webhook_secret(
        self, info: strawberry.Info, slug: Slug, id: EndpointId
    ) -> WebhookSecretPayload:
        def run() -> WebhookSecret:
            secret = managing.webhook_rotate(
                organizer=caller_organizer(info), slug=slug, endpoint_id=id
            )
            return WebhookSecret(id=id, secret=secret)

        result: WebhookSecret | Error = refusable(run, info, CreateThrottle)
        return result

    @strawberry.mutation(description="A test ping to one endpoint, logged as a delivery.")
    def ping_webhook(self, info: strawberry.Info, slug: Slug, id: EndpointId) -> DeliveryPayload:
        def run() -> Delivery:
            made = managing.webhook_ping(
                organizer=caller_organizer(info), slug=slug, endpoint_id=id
            )
            return Delivery(**selectors.delivery_view(made))

        result: Delivery | Error = refusable(run, info, CreateThrottle)
        return result

    @strawberry.mutation(description="Send a delivery again (same key and body).")
    def retry_delivery(
        self,
        info: strawberry.Info,
        slug: Slug,
        id: EndpointId,
        delivery: Annotated[int, strawberry.argument(description="The delivery's id.")],
    ) -> DeliveryPayload:
        def run() -> Delivery:
            again = managing.delivery_retry(
                organizer=caller_organizer(info), slug=slug, endpoint_id=id, delivery_id=delivery
            )
            return Delivery(**selectors.delivery_view(again))

        result: Delivery | Error = refusable(run, info, CreateThrottle)
        return result
