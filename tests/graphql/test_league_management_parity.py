"""Corrections and league management answer the same through GraphQL as through REST: the same
refusal (code, message, details) changing nothing, and the same views of what was done."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import Correction, Member, Season, WebhookEndpoint
from tests.api.snapshot import everything
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.graphql.leagues import call
from tests.graphql.rest_shape import rest_json, rest_shape
from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season, ok, org
from tests.leagues.receiver import receiver
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

CORRECTION = (
    "correction { id databaseId kind reason season tournament member match places createdAt }"
)
DELIVERED = """id databaseId kind sequence idempotencyKey status attempts lastStatus lastError
  createdAt lastAttemptAt deliveredAt resentAt"""
DELIVERY = f"delivery {{ {DELIVERED} }}"
ADA, BRICK = "Bot Ada (rookie)", "Bot Brick (rookie)"


def rows() -> tuple[Any, ...]:
    members = Member.objects.order_by("pk").values_list("pk", "handle", "claim_hash", "token_hash")
    seasons = Season.objects.order_by("pk").values_list("pk", "name", "ends_on", "archived_at")
    endpoints = WebhookEndpoint.objects.order_by("pk").values_list("pk", "secret")
    return (
        everything(),
        snapshot(),
        Correction.objects.count(),
        list(members),
        list(seasons),
        list(endpoints),
    )


def mutate(gql: GraphQL, mutation: str, selection: str, **given: Any) -> Any:
    """The mutation's result, once it is sure there was no refusal."""
    answer = payload(gql, mutation, f"{selection} {ERRORS}", **given)
    assert answer.pop("errors") == [], answer
    ((_, result),) = answer.items()
    return result


def enum(body: dict[str, Any]) -> dict[str, Any]:
    """REST's body as GraphQL's input: its ``kind`` a ``CorrectionKind``."""
    return {**body, "kind": body["kind"].upper()}


def same_refusal(
    client: APIClient, method: str, path: str, body: Any, gql: GraphQL, name: str, **args: Any
) -> None:
    before = rows()
    response = getattr(client, method)(f"/api/v1/{path}", body, format="json")
    assert response.status_code >= 400, response.content
    assert rows() == before
    answer = payload(gql, name, ERRORS, **args)
    assert rows() == before
    assert answer["errors"] == typed(response.json())


def test_corrections_and_management_refuse_the_same(catalogue: Any) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=2)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    gql, theirs = GraphQL(f"Token {token}"), GraphQL(f"Token {rival}")
    base = f"leagues/{slug}/"
    dq = {"kind": "disqualify", "reason": "x", "tournament": tid, "member": "nobody"}
    same_refusal(
        client, "post", base + "corrections/", dq, gql, "correctResult", slug=slug, **enum(dq)
    )
    bad = {"kind": "manual_result", "reason": "x", "tournament": tid, "places": {ADA: 1}}
    same_refusal(
        client, "post", base + "corrections/", bad, gql, "correctResult", slug=slug, **enum(bad)
    )
    empty = {"kind": "disqualify", "reason": "", "tournament": tid, "member": ADA}
    same_refusal(
        client, "post", base + "corrections/", empty, gql, "correctResult", slug=slug, **enum(empty)
    )
    same_refusal(
        client,
        "patch",
        base + f"members/{ADA}/",
        {"handle": "x"},
        gql,
        "renameMember",
        slug=slug,
        member=ADA,
        handle="x",
    )
    same_refusal(
        client, "delete", base + f"members/{ADA}/", None, gql, "removeMember", slug=slug, member=ADA
    )
    dates = {"starts_on": "2030-01-02", "ends_on": "2030-01-01"}
    same_refusal(
        client,
        "patch",
        base + f"seasons/{season}/",
        dates,
        gql,
        "updateSeason",
        slug=slug,
        seasonId=season,
        startsOn="2030-01-02",
        endsOn="2030-01-01",
    )
    gone = {"slug": slug, "endpointId": 9999}
    same_refusal(client, "delete", base + "webhooks/9999/", None, gql, "deleteWebhook", **gone)
    same_refusal(client, "post", base + "webhooks/9999/ping/", None, gql, "pingWebhook", **gone)
    client.credentials(HTTP_AUTHORIZATION=f"Token {rival}")
    same_refusal(
        client,
        "post",
        base + "corrections/",
        {**dq, "member": ADA},
        theirs,
        "correctResult",
        slug=slug,
        **enum({**dq, "member": ADA}),
    )
    refused = call(theirs, "members", "edges { node { member } }", slug=slug)
    assert refused["errors"][0]["extensions"]["code"] == "not_league_organizer"


def test_corrections_and_management_answer_the_same(catalogue: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=2)
    gql = GraphQL(f"Token {token}")
    made = mutate(
        gql,
        "correctResult",
        CORRECTION,
        slug=slug,
        kind="DISQUALIFY",
        reason="Rigged",
        tournament=tid,
        member=ADA,
    )
    trail = ok(client.get(f"/api/v1/leagues/{slug}/corrections/"), 200)["results"]
    assert [rest_shape(made)] == rest_json(trail)
    listed = call(
        gql,
        "corrections",
        "edges { node { databaseId kind reason season tournament member match places createdAt } }",
        slug=slug,
    )
    assert rest_shape(listed["data"]["result"]) == rest_json(trail)

    selection = "edges { node { member kind botLevel claimed createdAt } }"
    members = call(gql, "members", selection, slug=slug)["data"]["result"]
    by_rest = ok(client.get(f"/api/v1/leagues/{slug}/members/", headers=org(token)), 200)["results"]
    assert rest_shape(members) == rest_json(by_rest)

    archived = mutate(
        gql,
        "updateSeason",
        "season { archived name }",
        slug=slug,
        seasonId=season,
        archived=True,
        name="Old",
    )
    assert (archived["archived"], archived["name"]) == (True, "Old")
    view = ok(client.get(f"/api/v1/leagues/{slug}/", headers=org(token)), 200)["seasons"][0]
    assert (view["archived"], view["name"]) == (True, "Old")

    with receiver() as received:
        hook = ok(
            client.post(
                f"/api/v1/leagues/{slug}/webhooks/",
                {"url": received.url},
                format="json",
                headers=org(token),
            )
        )
        ping = mutate(gql, "pingWebhook", DELIVERY, slug=slug, endpointId=hook["id"])
        assert (ping["kind"], ping["sequence"], ping["status"]) == ("PING", 1, "DELIVERED")
        log = call(
            gql,
            "webhookDeliveries",
            f"edges {{ node {{ {DELIVERED} }} }}",
            slug=slug,
            id=hook["id"],
        )
        path = f"/api/v1/leagues/{slug}/webhooks/{hook['id']}/deliveries/"
        by_rest = ok(client.get(path, headers=org(token)), 200)["results"]
        assert rest_shape(log["data"]["result"]) == rest_json(by_rest)
        again = mutate(
            gql, "retryDelivery", DELIVERY, slug=slug, endpointId=hook["id"], deliveryId=ping["id"]
        )
        assert again["status"] == "DELIVERED" and len(received.processed) == 1
        rotated = mutate(
            gql,
            "rotateWebhookSecret",
            "webhook { id secret }",
            slug=slug,
            endpointId=hook["id"],
        )
        assert rotated["secret"] == WebhookEndpoint.objects.get().secret != hook["secret"]
        gone = mutate(gql, "deleteWebhook", "done { ok }", slug=slug, endpointId=hook["id"])
        assert gone["ok"] is True and not WebhookEndpoint.objects.exists()


def test_a_webhook_made_through_graphql_is_addressed_by_the_global_id_it_answers() -> None:
    """``createWebhook`` and ``rotateWebhookSecret`` answer the endpoint's global id (a
    ``WebhookItem``'s, its number ``databaseId``): the id the list, ``node(id:)`` and every
    mutation taking ``endpointId`` use."""
    token = create_organizer("org")
    slug, _season = league_with_season(APIClient(), token)
    gql = GraphQL(f"Token {token}")
    url = "http://93.184.215.14/hook"
    made = mutate(
        gql, "createWebhook", "webhook { id databaseId secret }", slug=slug, url=url, events=[]
    )
    endpoint = WebhookEndpoint.objects.get()
    assert made["databaseId"] == endpoint.pk and made["secret"] == endpoint.secret
    listed = call(gql, "webhooks", "edges { node { id } }", slug=slug)["data"]["result"]
    assert listed["edges"] == [{"node": {"id": made["id"]}}]
    found = gql.data("query($id: ID!) { node(id: $id) { __typename id } }", id=made["id"])["node"]
    assert found == {"__typename": "WebhookItem", "id": made["id"]}
    rotated = mutate(
        gql, "rotateWebhookSecret", "webhook { id secret }", slug=slug, endpointId=made["id"]
    )
    assert rotated == {"id": made["id"], "secret": WebhookEndpoint.objects.get().secret}
    gone = mutate(gql, "deleteWebhook", "done { ok }", slug=slug, endpointId=rotated["id"])
    assert gone["ok"] is True and not WebhookEndpoint.objects.exists()
