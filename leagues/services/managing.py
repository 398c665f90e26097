"""A league organizer's management writes.

Members: rename, remove, reissue a token. Webhook endpoints: edit, delete, rotate the secret, ping,
resend a delivery. A season's writes are in ``seasons``. Each write checks that the caller organizes
the league (``services``).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from infra.errors import ConflictError, NotFoundError
from leagues.models import (
    DeliveryStatus,
    FormerHandle,
    Member,
    MemberKind,
    WebhookDelivery,
    WebhookEndpoint,
)
from leagues.services import webhooks
from leagues.services.leagues import (
    check_webhook,
    handle_taken,
    league_of,
    require_organizer,
)
from tournaments.selectors.viewers import Organizer
from tournaments.services.common import new_token


def _human(slug: str, handle: str, *, lock: bool = False) -> Member:
    members = Member.objects.select_for_update(of=("self",)) if lock else Member.objects
    member = members.filter(league__slug=slug, handle=handle).first()
    if member is None:
        raise NotFoundError("unknown_member", _("This league has no member with that handle."))
    if member.kind != MemberKind.HUMAN:
        raise ConflictError("bot_member", _("A bot member is named by its bot; it has no token."))
    return member


def member_rename(*, organizer: Organizer | None, slug: str, handle: str, new: str) -> Member:
    """A human member's new handle. Its results, standings and rating follow it."""
    require_organizer(organizer, league_of(slug))
    member = _human(slug, handle)
    if new.lower().startswith("bot "):
        raise ConflictError("handle_taken", _("Handles starting with 'Bot ' are the bots'."))
    old = member.handle
    member.handle = new
    try:
        with transaction.atomic():
            member.save(update_fields=["handle"])
            handle_taken(member.league_id, new)
            if old.lower() != new.lower():  # the old address now redirects (docs/leagues.md)
                FormerHandle.objects.create(league_id=member.league_id, handle=old, member=member)
    except IntegrityError as taken:
        raise ConflictError("handle_taken", _("Another member has that handle.")) from taken
    return member


def member_remove(*, organizer: Organizer | None, slug: str, handle: str) -> None:
    """Remove a human member that never sat in a league tournament.

    A member with results is part of the record. Disqualify it instead, with a correction.
    """
    require_organizer(organizer, league_of(slug))
    with transaction.atomic():
        # Locked before the check: a join that is seating the member finishes first and its
        # seat is seen here (league_seat_join locks the member too).
        member = _human(slug, handle, lock=True)
        if member.seats.exists() or member.results.exists() or member.corrections.exists():
            raise ConflictError(
                "member_in_use", _("That member sat in a league tournament: disqualify it instead.")
            )
        member.delete()


def member_token_reissue(*, organizer: Organizer | None, slug: str, handle: str) -> str:
    """A new claim code for the member, shown this once. Its token, if claimed, stops working."""
    require_organizer(organizer, league_of(slug))
    member = _human(slug, handle)
    claim, digest = new_token()
    member.claim_hash, member.token_hash, member.claimed_at = digest, "", None
    member.save(update_fields=["claim_hash", "token_hash", "claimed_at"])
    return claim


def _endpoint(slug: str, endpoint_id: int) -> WebhookEndpoint:
    endpoint = WebhookEndpoint.objects.filter(league__slug=slug, pk=endpoint_id).first()
    if endpoint is None:
        raise NotFoundError("unknown_webhook", _("This league has no such webhook endpoint."))
    return endpoint


def webhook_of(*, organizer: Organizer | None, slug: str, endpoint_id: int) -> WebhookEndpoint:
    """One of the league's endpoints, to one of its organizers."""
    require_organizer(organizer, league_of(slug))
    return _endpoint(slug, endpoint_id)


def webhook_update(
    *, organizer: Organizer | None, slug: str, endpoint_id: int, changes: Mapping[str, object]
) -> WebhookEndpoint:
    """Change an endpoint's ``url``, ``events`` or ``active`` in place.

    Its secret, sequence and delivery log are kept. Changes are checked as at registration.
    Deliveries still pending go to the new URL.
    """
    webhook_of(organizer=organizer, slug=slug, endpoint_id=endpoint_id)
    url, events = changes.get("url"), changes.get("events", [])
    assert (url is None or isinstance(url, str)) and isinstance(events, list)  # a valid input
    check_webhook(url, events)
    with transaction.atomic():
        # The row lock an event being logged holds (``webhooks.emit``): it is logged under the
        # old subscription or the new one, never half of each.
        endpoint = WebhookEndpoint.objects.select_for_update().filter(pk=endpoint_id).first()
        if endpoint is None:  # deleted meanwhile
            raise NotFoundError("unknown_webhook", _("This league has no such webhook endpoint."))
        for name in ("url", "active"):
            if name in changes:
                setattr(endpoint, name, changes[name])
        if "events" in changes:
            endpoint.events = sorted(set(events))
        endpoint.save(update_fields=["url", "events", "active"])
    return endpoint


def webhook_delete(*, organizer: Organizer | None, slug: str, endpoint_id: int) -> None:
    """Delete an endpoint and its delivery log. Nothing more is sent to it."""
    endpoint = webhook_of(organizer=organizer, slug=slug, endpoint_id=endpoint_id)
    with transaction.atomic():
        # Lock the endpoint before its deliveries are collected: an event being logged for it
        # (``webhooks.emit`` holds this lock until it commits) finishes first, and its delivery
        # is then collected and deleted too, rather than left to fail the foreign key at commit.
        locked = WebhookEndpoint.objects.select_for_update().filter(pk=endpoint.pk).first()
        if locked is not None:  # another delete went first: nothing left to do
            locked.delete()


def webhook_rotate(*, organizer: Organizer | None, slug: str, endpoint_id: int) -> str:
    """A new signing secret, shown this once. Every attempt from now on is signed with it."""
    endpoint = webhook_of(organizer=organizer, slug=slug, endpoint_id=endpoint_id)
    endpoint.secret = secrets.token_hex(32)
    endpoint.save(update_fields=["secret"])
    return endpoint.secret


def webhook_ping(*, organizer: Organizer | None, slug: str, endpoint_id: int) -> WebhookDelivery:
    """A ``ping`` event to this endpoint alone, whatever it subscribed to: a receiver's test.

    It is logged and retried like any delivery.
    """
    endpoint = webhook_of(organizer=organizer, slug=slug, endpoint_id=endpoint_id)
    with transaction.atomic():
        [delivery_id] = webhooks.emit_to(
            endpoint, kind="ping", key=f"ping:{uuid.uuid4().hex}", data={"league": slug}
        )
    return WebhookDelivery.objects.get(pk=delivery_id)


def delivery_retry(
    *, organizer: Organizer | None, slug: str, endpoint_id: int, delivery_id: int
) -> WebhookDelivery:
    """Send a delivery of this endpoint again, delivered or not.

    It keeps its key and body, and is signed anew when sent. This starts a new round of attempts.
    They are counted on from the earlier ones.
    """
    endpoint = webhook_of(organizer=organizer, slug=slug, endpoint_id=endpoint_id)
    delivery = WebhookDelivery.objects.filter(endpoint=endpoint, pk=delivery_id).first()
    if delivery is None:
        raise NotFoundError("unknown_delivery", _("This endpoint has no such delivery."))
    if delivery.status == DeliveryStatus.PENDING and delivery.attempts == delivery.resent_after:
        raise ConflictError("delivery_pending", _("That delivery is being sent already."))
    with transaction.atomic():
        webhooks.delivery_resend(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    return delivery
