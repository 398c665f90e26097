"""Every league list, declared once (``apikit.lists``).

REST's list views (``leagues.api``) and GraphQL's connections (``leagues.graphql``) are made from
these. So both check the caller alike and read the same rows.
"""

from __future__ import annotations

from django.db.models import QuerySet

from apikit.actions import Call, Ident
from apikit.lists import Listed
from apikit.openapi import Operation
from leagues.actions import SLUG, WRITE, organizer
from leagues.models import Correction, League, WebhookEndpoint
from leagues.selectors import leagues as selectors
from leagues.services import leagues as services
from leagues.services import managing, schedules
from leagues.shapes import (
    Calendar,
    CorrectionList,
    CorrectionView,
    Delivery,
    DeliveryList,
    EmbedSiteList,
    LeagueItem,
    LeagueList,
    MemberList,
    WebhookList,
)
from leagues.shapes import ScheduleView as ScheduleShape
from tournaments.actions import actor

# GraphQL names the endpoint ``id`` (REST's path: ``endpoint_id``).
ENDPOINT = Ident(
    "endpoint_id", int, "The webhook endpoint's id.", field="id", nodes=("WebhookItem",)
)


def _leagues(call: Call) -> list[LeagueItem]:
    actor(call)  # ``bad_token`` for an unknown token, as everywhere
    return selectors.league_list()


def _league_rows(call: Call) -> QuerySet[League]:
    actor(call)
    return selectors.league_rows()


def _corrections(call: Call) -> list[CorrectionView]:
    actor(call)
    return selectors.correction_list(call.data["slug"])


def _correction_rows(call: Call) -> QuerySet[Correction]:
    actor(call)
    return selectors.correction_rows(call.data["slug"])


def _calendar(call: Call) -> list[ScheduleShape]:
    actor(call)
    return schedules.calendar(call.data["slug"])


def _organizers_only(call: Call) -> str:
    """The league's slug, once the caller is one of its organizers. Else ``forbidden``."""
    slug: str = call.data["slug"]
    services.require_organizer(organizer(call), services.league_of(slug))
    return slug


def _endpoint(call: Call) -> WebhookEndpoint:
    """The endpoint, once the caller is one of its league's organizers. Else ``forbidden``."""
    data = call.data
    return managing.webhook_of(organizer=organizer(call), slug=data["slug"], endpoint_id=data["id"])


def _deliveries(call: Call) -> list[Delivery]:
    return selectors.delivery_list(_endpoint(call))


LEAGUES = Listed(
    name="leagues",
    description="Public leagues (an unlisted one is reached by its slug).",
    listing=LeagueList,
    rows=_leagues,
    operation=Operation(
        "List public leagues", "Every public league (an unlisted one is reached by its slug)."
    ),
    query=_league_rows,
)
MEMBERS = Listed(
    name="members",
    description="A league's members (its organizers only).",
    listing=MemberList,
    rows=lambda call: selectors.member_list(_organizers_only(call)),
    path=(SLUG,),
    operation=Operation(
        "List a league's members (league organizer)",
        "Handle, kind, a bot's strength and whether the token is claimed; no secret.",
        {403: WRITE, 404: ["not_found"]},
    ),
    query=lambda call: selectors.member_rows(_organizers_only(call)),
)
WEBHOOKS = Listed(
    name="webhooks",
    description="A league's webhook endpoints (its organizers only).",
    listing=WebhookList,
    rows=lambda call: selectors.webhook_list(_organizers_only(call)),
    path=(SLUG,),
    operation=Operation(
        "List a league's webhook endpoints (league organizer)",
        "Each endpoint's URL, events, whether active and its last sequence; never the secret.",
        {403: WRITE},
    ),
    query=lambda call: selectors.webhook_rows(_organizers_only(call)),
)
WEBHOOK_DELIVERIES = Listed(
    name="webhook_deliveries",
    description="An endpoint's newest 100 deliveries (its organizers only).",
    listing=DeliveryList,
    rows=_deliveries,
    path=(SLUG, ENDPOINT),
    operation=Operation(
        "Read a webhook's delivery log (league organizer)",
        "The newest 100 deliveries first: status, attempts, last answer and error.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
    query=lambda call: selectors.delivery_rows(_endpoint(call)),
)
CORRECTIONS = Listed(
    name="corrections",
    description="A league's corrections, oldest first: its audit trail.",
    listing=CorrectionList,
    rows=_corrections,
    path=(SLUG,),
    operation=Operation(
        "List a league's corrections",
        "The audit trail: every correction, oldest first, with its reason.",
    ),
    query=_correction_rows,
)
CALENDAR = Listed(
    name="calendar",
    description="A league's scheduled tournaments by start time.",
    listing=Calendar,
    rows=_calendar,
    path=(SLUG,),
    operation=Operation(
        "A league's calendar",
        "Its scheduled tournaments by start time: status, check-in window, who checked in, "
        "and how each scheduled start turned out.",
    ),
)

EMBED_SITES = Listed(
    name="embed_sites",
    description="The sites that may frame the league's standings widget (its organizers only).",
    listing=EmbedSiteList,
    rows=lambda call: selectors.embed_site_list(_organizers_only(call)),
    path=(SLUG,),
    operation=Operation(
        "List the sites allowed to frame the standings widget (league organizer)",
        "Each origin that `/leagues/{slug}/embed/` names in its `frame-ancestors`.",
        {403: WRITE},
    ),
)

LISTED = (LEAGUES, MEMBERS, WEBHOOKS, WEBHOOK_DELIVERIES, CORRECTIONS, CALENDAR, EMBED_SITES)
