"""Signed webhooks against a receiver the test runs on 127.0.0.1: every delivery verifies, a
receiver that fails twice gets each event once per idempotency key, a repeated event makes no
second delivery, the admin's resend keeps the key, a stalled delivery is swept up."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import WebhookDelivery
from leagues.services.webhooks import (
    MAX_ATTEMPTS,
    SIGNATURE_HEADER,
    deliveries_stalled,
    sign,
    verify,
)
from leagues.tasks import round_finished, tournament_finished
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
)
from tests.leagues.receiver import receiver

pytestmark = pytest.mark.django_db(transaction=True)
DOC = Path(__file__).resolve().parents[2] / "docs" / "leagues.md"


@pytest.fixture(autouse=True)
def _receiver_on_loopback(settings: Any) -> None:
    """The receivers here listen on 127.0.0.1: allowed as a server on a private network is."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True


def documented_verify() -> Any:
    """The verification snippet of docs/leagues.md, run as written."""
    snippet = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert snippet is not None
    scope: dict[str, Any] = {}
    exec(snippet.group(1), scope)
    return scope["verify"]


def register(client: APIClient, token: str, slug: str, url: str, **body: Any) -> str:
    made = ok(post(client, f"leagues/{slug}/webhooks/", {"url": url, **body}, org(token)))
    secret: str = made["secret"]
    return secret


def test_a_receiver_failing_twice_gets_each_event_once_signed(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    with receiver(fail_first=2) as received:
        secret = register(client, token, slug, received.url)
        tid = bot_tournament(client, token, slug, season, seats=2)
        deliveries = list(WebhookDelivery.objects.order_by("id"))
        kinds = [d.kind for d in deliveries]
        assert kinds[-2:] == ["tournament_finished", "standings_changed"]
        assert set(kinds[:-2]) == {"round_finished"} and len(kinds) >= 3
        assert {d.status for d in deliveries} == {"delivered"}
        assert sum(d.attempts for d in deliveries) == len(deliveries) + 2
        assert len(received.requests) == len(deliveries) + 2
        assert sorted(received.processed) == sorted(d.idempotency_key for d in deliveries)
        from_docs = documented_verify()
        for headers, body in received.requests:
            assert verify(secret, body, headers[SIGNATURE_HEADER])
            assert from_docs(secret, body, headers[SIGNATURE_HEADER])
            assert not from_docs(secret, body[:-1], headers[SIGNATURE_HEADER])
            assert not verify(secret, body + b" ", headers[SIGNATURE_HEADER])
            assert not verify("another secret", body, headers[SIGNATURE_HEADER])
            assert json.loads(body)["id"] == headers["Idempotency-Key"]
        finished = json.loads(received.processed[f"tournament_finished:{tid}"])
        assert finished["kind"] == "tournament_finished"
        assert finished["data"]["tournament"] == tid and len(finished["data"]["results"]) == 2

        # The hooks run again (a redelivered task): nothing new is logged or sent.
        sent = len(received.requests)
        assert tournament_finished.apply(args=(tid, 7)).get() is False
        assert round_finished.apply(args=(tid, 1)).get() is True
        assert WebhookDelivery.objects.count() == len(deliveries)
        assert len(received.requests) == sent

        # The admin's resend: the same key again, which the receiver drops.
        admin = get_user_model().objects.create_superuser("admin", "a@example.com", "pw")
        browser = APIClient()
        browser.force_login(admin)
        page = browser.post(
            "/admin/leagues/webhookdelivery/",
            {"action": "resend", "_selected_action": [deliveries[-1].pk]},
        )
        assert page.status_code == 302
        assert len(received.requests) == sent + 1
        assert received.requests[-1][0]["Idempotency-Key"] == deliveries[-1].idempotency_key
        assert len(received.processed) == len(deliveries)


def test_a_delivery_out_of_attempts_is_failed_and_a_stalled_one_is_swept_up(
    catalogue: Any,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    with receiver() as received:
        closed = received.url.replace("/hook", "")
    # Nobody listens there any more: every attempt fails, then the delivery is marked failed.
    register(client, token, slug, closed, events=["tournament_finished"])
    bot_tournament(client, token, slug, season, seats=2)
    failed = WebhookDelivery.objects.get()
    assert (failed.kind, failed.status, failed.attempts) == (
        "tournament_finished",
        "failed",
        MAX_ATTEMPTS,
    )
    assert failed.last_status is None and failed.last_error

    # A delivery whose worker died between attempts stays pending; the sweep sends it again.
    with receiver() as received:
        endpoint = failed.endpoint
        endpoint.url = received.url
        endpoint.save()
        long_ago = timezone.now() - timedelta(minutes=10)
        WebhookDelivery.objects.filter(pk=failed.pk).update(
            status="pending", last_attempt_at=long_ago, created_at=long_ago
        )
        assert deliveries_stalled() == 1
        assert WebhookDelivery.objects.get().status == "delivered"
        assert list(received.processed) == [failed.idempotency_key]
        assert deliveries_stalled() == 0


def test_the_signature_is_hmac_sha256_over_the_timestamp_and_the_body() -> None:
    import hashlib
    import hmac

    header = sign("s3cret", b'{"a":1}', 1700000000)
    expected = hmac.new(b"s3cret", b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert not verify("s3cret", b'{"a":1}', header)  # too old
    assert verify("s3cret", b'{"a":1}', header, tolerance=10**10)
    assert not verify("s3cret", b'{"a":1}', "v1=" + expected)
