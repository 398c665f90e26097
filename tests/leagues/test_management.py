"""The organizer's management API: members (list, rename, remove, reissue a token), seasons
(edit dates and policies, archive) and webhooks (list, rotate the secret, ping, delivery log,
retry, delete), each for the league's organizers only and refused with a code otherwise."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import Member, WebhookDelivery, WebhookEndpoint
from leagues.services.webhooks import SIGNATURE_HEADER, verify
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    member_token,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.receiver import receiver

pytestmark = pytest.mark.django_db(transaction=True)


def gone(response: Any) -> None:
    assert response.status_code == 204, response.content


def call(client: APIClient, method: str, path: str, token: str, body: Any = None) -> Any:
    send = getattr(client, method)
    if method in ("get", "delete"):
        return send(f"/api/v1/{path}", headers=org(token))
    return send(f"/api/v1/{path}", body or {}, format="json", headers=org(token))


def test_members_are_listed_renamed_reissued_and_removed(catalogue: Any) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    ann = member_token(client, token, slug, "ann")
    ok(post(client, f"leagues/{slug}/members/", {"handle": "bob"}, org(token)))
    bot_tournament(client, token, slug, season, seats=2)

    listed = ok(call(client, "get", f"leagues/{slug}/members/", token), 200)["results"]
    assert [(m["member"], m["kind"], m["bot_level"], m["claimed"]) for m in listed] == [
        ("Bot Ada (rookie)", "bot", "rookie", False),
        ("Bot Brick (rookie)", "bot", "rookie", False),
        ("ann", "human", None, True),
        ("bob", "human", None, False),
    ]
    assert "hash" not in str(listed)
    refused(call(client, "get", f"leagues/{slug}/members/", rival), 403, "not_league_organizer")
    refused(client.get(f"/api/v1/leagues/{slug}/members/"), 403, "organizer_required")

    renamed = ok(
        call(client, "patch", f"leagues/{slug}/members/ann/", token, {"handle": "Ann B"}), 200
    )
    # the member as the organizers' list shows it (GraphQL's renameMember answers the same)
    assert {k: renamed[k] for k in ("member", "kind", "bot_level", "claimed")} == {
        "member": "Ann B",
        "kind": "human",
        "bot_level": None,
        "claimed": True,
    }
    refused(
        call(client, "patch", f"leagues/{slug}/members/bob/", token, {"handle": "Ann B"}),
        409,
        "handle_taken",
    )
    refused(
        call(client, "patch", f"leagues/{slug}/members/Bot Ada (rookie)/", token, {"handle": "x"}),
        409,
        "bot_member",
    )
    refused(
        call(client, "patch", f"leagues/{slug}/members/nobody/", token, {"handle": "x"}),
        404,
        "unknown_member",
    )

    # A new claim code: the old token stops working, the new one is claimed once.
    claim = ok(call(client, "post", f"leagues/{slug}/members/Ann B/token/", token))["claim_code"]
    join = {"code": "ABCDEF", "member_token": ann}
    refused(post(client, "leagues/tournaments/join/", join), 401, "bad_member_token")
    fresh = ok(post(client, f"leagues/{slug}/members/claim/", {"claim_code": claim}))
    assert fresh["member"] == "Ann B" and fresh["token"] != ann

    gone(call(client, "delete", f"leagues/{slug}/members/bob/", token))
    assert not Member.objects.filter(handle="bob").exists()
    refused(
        call(client, "delete", f"leagues/{slug}/members/Bot Ada (rookie)/", token),
        409,
        "bot_member",
    )


def test_a_member_who_played_is_not_removed(catalogue: Any) -> None:
    from tests.leagues.helpers import members_tournament

    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    members_tournament(client, token, slug, [member_token(client, token, slug, "ann")], bots=1)
    refused(call(client, "delete", f"leagues/{slug}/members/ann/", token), 409, "member_in_use")
    assert Member.objects.filter(handle="ann").exists()


def test_a_season_is_edited_and_archived(catalogue: Any) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/"
    edited = ok(
        call(
            client,
            "patch",
            path,
            token,
            {"name": "Spring 26", "ends_on": "2099-06-30", "bots_allowed": False},
        ),
        200,
    )
    assert (edited["name"], edited["ends_on"], edited["bots_allowed"]) == (
        "Spring 26",
        "2099-06-30",
        False,
    )
    refused(
        call(client, "patch", path, token, {"starts_on": "2099-07-01"}), 400, "bad_season_dates"
    )
    refused(call(client, "patch", path, rival, {"name": "x"}), 403, "not_league_organizer")
    refused(
        call(client, "patch", f"leagues/{slug}/seasons/99999/", token, {"name": "x"}),
        404,
        "unknown_season",
    )

    assert ok(call(client, "patch", path, token, {"archived": True}), 200)["archived"] is True
    opening = f"leagues/{slug}/seasons/{season}/tournaments/"
    refused(post(client, opening, {"seats": 2}, org(token)), 409, "season_archived")
    assert ok(call(client, "patch", path, token, {"archived": False}), 200)["archived"] is False
    ok(post(client, opening, {"seats": 2}, org(token)))


def test_webhooks_are_listed_rotated_pinged_retried_and_deleted(
    catalogue: Any, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, _ = league_with_season(client, token)
    with receiver(fail_first=8) as received:
        made = ok(post(client, f"leagues/{slug}/webhooks/", {"url": received.url}, org(token)))
        hook = f"leagues/{slug}/webhooks/{made['id']}/"
        listed = ok(call(client, "get", f"leagues/{slug}/webhooks/", token), 200)["results"]
        assert [(w["id"], w["url"], w["last_sequence"]) for w in listed] == [
            (made["id"], received.url, 0)
        ]
        assert "secret" not in listed[0]
        refused(
            call(client, "get", f"leagues/{slug}/webhooks/", rival), 403, "not_league_organizer"
        )

        # The receiver fails the ping's 8 attempts: the log shows it failed; a retry delivers it.
        ping = ok(call(client, "post", hook + "ping/", token))
        assert (ping["kind"], ping["sequence"], ping["status"]) == ("ping", 1, "failed")
        log = ok(call(client, "get", hook + "deliveries/", token), 200)["results"]
        assert [(d["id"], d["attempts"], d["last_status"]) for d in log] == [(ping["id"], 8, 500)]
        retried = ok(call(client, "post", hook + f"deliveries/{ping['id']}/retry/", token), 200)
        assert (retried["status"], retried["attempts"]) == ("delivered", 9)  # 8 failed, 1 more
        assert retried["resent_at"] is not None
        assert list(received.processed) == [ping["idempotency_key"]]

        # A rotated secret signs every attempt from then on.
        secret = ok(call(client, "post", hook + "secret/", token))["secret"]
        assert secret != made["secret"]
        second = ok(call(client, "post", hook + "ping/", token))
        assert second["sequence"] == 2 and second["status"] == "delivered"
        headers, body = received.requests[-1]
        assert verify(secret, body, headers[SIGNATURE_HEADER])
        assert not verify(made["secret"], body, headers[SIGNATURE_HEADER])

    refused(call(client, "post", hook + "deliveries/99999/retry/", token), 404, "unknown_delivery")
    refused(call(client, "delete", hook, rival), 403, "not_league_organizer")
    gone(call(client, "delete", hook, token))
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()
    refused(call(client, "post", hook + "ping/", token), 404, "unknown_webhook")
