"""Signed webhooks: the deliveries of a league's events to its endpoints.

An event becomes one ``WebhookDelivery`` per subscribed endpoint. It is made in the transaction that
caused the event. So none is lost to a crash. Each has an idempotency key that names the event. So
the same event never makes two deliveries for one endpoint. A task queued on commit sends it.

A body is ``{"id", "kind", "sequence", "occurred_at", "data"}`` as JSON. It is signed with the
endpoint's secret:

    Challengers-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>

A failed attempt gets no answer, or a status other than 2xx. It queues the next attempt with
exponential backoff, counted on the row. So a retry survives a worker's death. The embedded runner
and in-process tests retry the same way. ``MAX_ATTEMPTS`` failures mark it failed.

A receiver drops a repeat by the ``Idempotency-Key`` header, which is the body's ``id``. Retries can
arrive out of order. So a receiver orders what it got by ``sequence``. That number increases from 1
per endpoint.

Every attempt goes to a checked public address and follows no redirect (``destinations``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import datetime, timedelta
from http.client import HTTPException

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from infra import metrics
from infra.taskqueue import enqueue_named
from leagues.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint
from leagues.services.destinations import DestinationError, post
from tournaments.selectors.owed import Owed

EVENT_KINDS = ("tournament_finished", "round_finished", "standings_changed")
SIGNATURE_HEADER = "Challengers-Signature"
TIMEOUT_SECONDS = 5
DELIVER = "leagues.tasks.deliver_webhook"
# Attempts of one delivery: 2, 4, 8, 16 s apart, then every 25 s (under half the broker's
# visibility timeout, so a waiting retry is sent with its countdown: infra.taskqueue.enqueue).
MAX_ATTEMPTS = 8
BACKOFF_SECONDS = 2
BACKOFF_CAP_SECONDS = 25


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={mac.hexdigest()}"


def verify(secret: str, body: bytes, header: str, *, tolerance: int = 300) -> bool:
    """What a receiver checks: the signature matches and is at most ``tolerance`` seconds old."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    expected = sign(secret, body, timestamp).split("v1=", 1)[1]
    fresh = abs(time.time() - timestamp) <= tolerance
    return fresh and hmac.compare_digest(expected, fields.get("v1", ""))


def emit(
    *,
    league_id: int,
    kind: str,
    key: str,
    data: dict[str, object],
    occurred_at: datetime | None = None,
) -> list[int]:
    """Log ``kind`` for the league's active endpoints that want it, and queue the sends on commit.

    An event already logged under ``key`` for an endpoint is not logged again. Each new delivery
    takes its endpoint's next ``sequence``: 1, 2, 3, … per endpoint.
    """
    created = []
    when = occurred_at or timezone.now()  # one instant for every endpoint
    # As REST writes it (a correction's time as ISO 8601 text): the payload is stored as JSON.
    data = json.loads(json.dumps(data, cls=JSONEncoder))
    for endpoint in WebhookEndpoint.objects.filter(league_id=league_id, active=True):
        if endpoint.events and kind not in endpoint.events:
            continue
        created += emit_to(endpoint, kind=kind, key=key, data=data, occurred_at=when)
    return created


def emit_to(
    endpoint: WebhookEndpoint,
    *,
    kind: str,
    key: str,
    data: dict[str, object],
    occurred_at: datetime | None = None,
) -> list[int]:
    """``emit`` for one endpoint, whatever it subscribed to (a ``ping``)."""
    if WebhookDelivery.objects.filter(endpoint=endpoint, idempotency_key=key).exists():
        return []
    when = (occurred_at or timezone.now()).isoformat().replace("+00:00", "Z")
    sequence = _next_sequence(endpoint.pk)
    if sequence is None:  # deleted since it was listed (its delete committed): nothing to send
        return []
    payload = {"id": key, "kind": kind, "sequence": sequence, "occurred_at": when}
    delivery, new = WebhookDelivery.objects.get_or_create(
        endpoint=endpoint,
        idempotency_key=key,
        defaults={"kind": kind, "sequence": sequence, "payload": {**payload, "data": data}},
    )
    if not new:
        return []
    transaction.on_commit(lambda: _queue([delivery.pk]))
    return [delivery.pk]


def _next_sequence(endpoint_id: int) -> int | None:
    """The endpoint's next event number (``None``: the endpoint is gone).

    The UPDATE locks the endpoint's row until the event's transaction ends. So two events of one
    endpoint never take the same number. Numbers follow the order the events commit in. A delete of
    the endpoint waits for the event (``managing.webhook_delete``).
    """
    endpoints = WebhookEndpoint.objects.filter(pk=endpoint_id)
    if not endpoints.update(last_sequence=F("last_sequence") + 1):
        return None
    return int(endpoints.values_list("last_sequence", flat=True).get())


def _queue(ids: list[int]) -> None:
    for pk in ids:
        enqueue_named(DELIVER, pk)


def body_of(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, sort_keys=True, separators=(",", ":")).encode()


def deliver(*, delivery_id: int) -> bool | None:
    """One attempt.

    ``True``: delivered, now or before. ``None``: nothing to send. ``False``: failed. Then the next
    attempt is queued. After ``MAX_ATTEMPTS`` failures the delivery is marked failed instead.
    """
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.status == DeliveryStatus.FAILED:
        return None
    if delivery.status == DeliveryStatus.DELIVERED:
        return True
    status, error = _post(delivery)
    attempts = delivery.attempts + 1 - delivery.resent_after  # this round's (``delivery_resend``)
    sent = status is not None and 200 <= status < 300
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        attempts=F("attempts") + 1,
        last_status=status,
        last_error=error[:2000],
        last_attempt_at=timezone.now(),
    )
    pending = WebhookDelivery.objects.filter(pk=delivery_id, status=DeliveryStatus.PENDING)
    if sent:
        pending.update(status=DeliveryStatus.DELIVERED, delivered_at=timezone.now())
        outcome = "delivered"
    elif attempts >= MAX_ATTEMPTS:
        pending.update(status=DeliveryStatus.FAILED)
        outcome = "failed"
    else:
        enqueue_named(DELIVER, delivery_id, countdown=backoff(attempts))
        outcome = "retrying"
    metrics.WEBHOOKS.labels(outcome).inc()
    return sent


def backoff(attempts: int) -> float:
    """Seconds from a delivery's ``attempts``-th failed attempt to the next one."""
    return float(min(BACKOFF_SECONDS * 2 ** (attempts - 1), BACKOFF_CAP_SECONDS))


def deliveries_owed(*, now: datetime) -> list[Owed]:
    """Pending deliveries for the reconciler (``settings.RECONCILE_SOURCES``).

    Each is owed since it was made, or since its next attempt was due.
    """
    pending = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
    pending = pending.annotate(made=F("attempts") - F("resent_after"))
    owed = []
    for pk, attempts, created, last, resent in pending.values_list(
        "pk", "made", "created_at", "last_attempt_at", "resent_at"
    ):
        since = _owed_since(attempts, created, last, resent)
        owed.append(Owed(f"delivery:{pk}", None, since, DELIVER, (pk,)))
    return owed


def _owed_since(
    attempts: int, created: datetime, last: datetime | None, resent: datetime | None
) -> datetime:
    """When a pending delivery's next attempt was due.

    That is at once when it was made or sent again. Otherwise it is its backoff after the last
    attempt (``attempts`` made in this round).
    """
    if last is None or (resent is not None and resent >= last):
        return resent or created
    return last + timedelta(seconds=backoff(attempts))


def _post(delivery: WebhookDelivery) -> tuple[int | None, str]:
    body = body_of(delivery)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Challengers-Webhooks/1",
        "Challengers-Event": delivery.kind,
        "Idempotency-Key": delivery.idempotency_key,
        SIGNATURE_HEADER: sign(delivery.endpoint.secret, body, int(time.time())),
    }
    try:
        status = post(delivery.endpoint.url, body, headers, timeout=TIMEOUT_SECONDS)
    except DestinationError as refused:
        return None, f"{refused.code}: {refused.message}"
    except (HTTPException, OSError) as failed:
        return None, str(failed) or type(failed).__name__
    return status, "" if 200 <= status < 300 else f"HTTP {status}"


def delivery_resend(*, delivery_id: int) -> None:
    """Send a delivery again, delivered or not: an organizer's or the admin's action.

    It is pending again with the same key and body, queued on commit. Its attempts go on counting;
    the log keeps them. This round has ``MAX_ATTEMPTS`` of its own. Each attempt is signed when
    sent.
    """
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        status=DeliveryStatus.PENDING,
        delivered_at=None,
        resent_after=F("attempts"),
        resent_at=timezone.now(),
    )
    transaction.on_commit(lambda: enqueue_named(DELIVER, delivery_id))


def deliveries_stalled(*, older_than_seconds: int = 300) -> int:
    """Queue again every delivery still pending long after it was made.

    Its worker died between attempts. The receiver drops a repeat by its idempotency key.
    """
    since = timezone.now() - timedelta(seconds=older_than_seconds)
    stalled = WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, created_at__lt=since)
    stalled = stalled.filter(Q(last_attempt_at__isnull=True) | Q(last_attempt_at__lt=since))
    stalled = stalled.filter(Q(resent_at__isnull=True) | Q(resent_at__lt=since))
    ids = list(stalled.values_list("pk", flat=True)[:500])
    for pk in ids:
        enqueue_named(DELIVER, pk)
    return len(ids)
