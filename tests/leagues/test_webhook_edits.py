"""A webhook endpoint edited in place (its secret kept, its URL checked as at registration) and
a delivery sent again by its organizer, a delivered one too: a new attempt, signed anew."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import WebhookDelivery, WebhookEndpoint
from leagues.services.webhooks import SIGNATURE_HEADER, verify
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.graphql.test_league_management_parity import DELIVERY, mutate
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.receiver import receiver

pytestmark = pytest.mark.django_db(transaction=True)


def patch(client: APIClient, token: str, path: str, body: Any) -> Any:
    return client.patch(f"/api/v1/{path}", body, format="json", headers=org(token))


def endpoint_row() -> tuple[Any, ...]:
    return tuple(WebhookEndpoint.objects.values_list("url", "events", "active", "secret").get())


def test_an_endpoint_is_edited_in_place_and_keeps_its_secret(catalogue: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client, token, rival = APIClient(), create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    with receiver() as first, receiver() as second:
        made = ok(post(client, f"leagues/{slug}/webhooks/", {"url": first.url}, org(token)))
        path = f"leagues/{slug}/webhooks/{made['id']}/"
        edited = ok(
            patch(client, token, path, {"url": second.url, "events": ["round_finished"]}), 200
        )
        assert (edited["id"], edited["url"], edited["events"], edited["active"]) == (
            made["id"],
            second.url,
            ["round_finished"],
            True,
        )
        assert "secret" not in edited

        before = endpoint_row()
        bad: list[tuple[dict[str, Any], str]] = [
            ({"url": "http://exa mple.com/hook"}, "bad_webhook_url"),
            ({"url": "ftp://example.com/hook"}, "bad_webhook_url"),
            ({"events": ["everything"]}, "invalid"),
            ({"active": "maybe"}, "invalid"),
            ({"secret": "mine"}, "unknown_field"),
        ]
        for change, code in bad:
            refused(patch(client, token, path, {"active": False, **change}), 400, code)
        refused(patch(client, rival, path, {"active": False}), 403, "not_league_organizer")
        refused(patch(client, token, f"leagues/{slug}/webhooks/999/", {}), 404, "unknown_webhook")
        settings.WEBHOOKS_ALLOW_PRIVATE = False
        refused(
            patch(client, token, path, {"url": "http://10.0.0.1/"}), 400, "webhook_url_forbidden"
        )
        settings.WEBHOOKS_ALLOW_PRIVATE = True
        assert endpoint_row() == before

        # Its events go to the new URL, signed with the secret it was given at registration.
        bot_tournament(client, token, slug, season, seats=2)
        assert not first.requests
        kinds = set(WebhookDelivery.objects.values_list("kind", flat=True))
        assert kinds == {"round_finished"}
        headers, body = second.requests[-1]
        assert verify(made["secret"], body, headers[SIGNATURE_HEADER])

        # Inactive: nothing more is logged for it.
        gql = GraphQL(f"Token {token}")
        off = mutate(
            gql,
            "updateWebhook",
            "webhook { active events }",
            slug=slug,
            endpointId=made["id"],
            active=False,
            events=[],
        )
        assert off == {"active": False, "events": []}
        count = WebhookDelivery.objects.count()
        bot_tournament(client, token, slug, season, seats=2)
        assert WebhookDelivery.objects.count() == count

        response = patch(client, token, path, {"url": "http://exa mple.com/"})
        answer = payload(
            gql,
            "updateWebhook",
            f"webhook {{ id }} {ERRORS}",
            slug=slug,
            endpointId=made["id"],
            url="http://exa mple.com/",
        )
        assert answer["errors"] == typed(response.json())


def test_a_delivered_delivery_is_sent_again_as_a_new_attempt_signed_anew(
    catalogue: Any, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client, token, rival = APIClient(), create_organizer("org"), create_organizer("rival")
    slug, _ = league_with_season(client, token)
    with receiver() as received:
        made = ok(post(client, f"leagues/{slug}/webhooks/", {"url": received.url}, org(token)))
        hook = f"leagues/{slug}/webhooks/{made['id']}/"
        ping = ok(post(client, hook + "ping/", None, org(token)))
        assert (ping["status"], ping["attempts"], ping["resent_at"]) == ("delivered", 1, None)

        # The receiver lost it; the secret was rotated meanwhile: the resend is signed anew.
        secret = ok(post(client, hook + "secret/", None, org(token)))["secret"]
        resend = hook + f"deliveries/{ping['id']}/retry/"
        refused(post(client, resend, None, org(rival)), 403, "not_league_organizer")
        again = ok(post(client, resend, None, org(token)), 200)
        assert (again["status"], again["attempts"]) == ("delivered", 2)
        assert again["resent_at"] is not None and again["delivered_at"] > ping["delivered_at"]
        (first_headers, first_body), (headers, body) = received.requests
        assert body == first_body and headers["Idempotency-Key"] == ping["idempotency_key"]
        assert verify(secret, body, headers[SIGNATURE_HEADER])
        assert not verify(made["secret"], body, headers[SIGNATURE_HEADER])
        assert verify(made["secret"], first_body, first_headers[SIGNATURE_HEADER])

        gql = GraphQL(f"Token {token}")
        third = mutate(
            gql, "retryDelivery", DELIVERY, slug=slug, endpointId=made["id"], deliveryId=ping["id"]
        )
        assert (third["status"], third["attempts"]) == ("DELIVERED", 3)
        assert len(received.requests) == 3


def test_a_resend_has_attempts_of_its_own(catalogue: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client, token = APIClient(), create_organizer("org")
    slug, _ = league_with_season(client, token)
    with receiver(fail_first=10) as received:
        made = ok(post(client, f"leagues/{slug}/webhooks/", {"url": received.url}, org(token)))
        hook = f"leagues/{slug}/webhooks/{made['id']}/"
        ping = ok(post(client, hook + "ping/", None, org(token)))
        assert (ping["status"], ping["attempts"]) == ("failed", 8)
        # Two more failures, then delivered: the resend's round went on past 8 in all.
        again = ok(post(client, hook + f"deliveries/{ping['id']}/retry/", None, org(token)), 200)
        assert (again["status"], again["attempts"], again["last_status"]) == ("delivered", 11, 200)
        assert len(received.requests) == 11
