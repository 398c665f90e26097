"""The league types that mirror a model's row (``leagues.graphql.types``) answer alike whatever
they resolve from: a row of a list, the shape a mutation or a selector answers (a correction in
a member's history, an endpoint just updated), or ``node(id:)`` 's; and their lists stay their
league's organizers' alone."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import (
    Correction,
    CorrectionKind,
    League,
    Member,
    WebhookDelivery,
    WebhookEndpoint,
)
from tests.graphql.client import GraphQL, edges, nodes, payload
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db

CORRECTION = "id databaseId kind reason season tournament member match places createdAt"
WEBHOOK = "id databaseId url events active lastSequence createdAt"
NODE = (
    "query($id: ID!) { node(id: $id) { ... on CorrectionView { %s } ... on WebhookItem { %s } } }"
)


def gid(kind: str, number: int) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def _league() -> tuple[str, str, WebhookEndpoint, Correction]:
    """A league with an endpoint (one delivery) and a correction naming two members' places."""
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    league = League.objects.get(slug=slug)
    ann, bob = Member.objects.bulk_create(
        Member(league=league, handle=handle) for handle in ("ann", "bob")
    )
    hook = {"url": "https://hooks.example.com/in"}
    endpoint = WebhookEndpoint.objects.get(
        pk=ok(post(client, f"leagues/{slug}/webhooks/", hook, org(token)))["id"]
    )
    WebhookDelivery.objects.create(endpoint=endpoint, kind="ping", sequence=1, idempotency_key="k")
    correction = Correction.objects.create(
        league=league,
        season_id=season,
        member=ann,
        kind=CorrectionKind.DISQUALIFY,
        reason="Cheated",
        places={str(ann.pk): 2, str(bob.pk): 1},
    )
    return slug, token, endpoint, correction


def test_a_correction_answers_alike_from_its_row_its_shape_and_node() -> None:
    slug, token, _endpoint, correction = _league()
    gql = GraphQL(f"Token {token}")
    listed = nodes(
        gql.data("query($s: String!) { corrections(slug: $s)" + edges(CORRECTION) + " }", s=slug)[
            "corrections"
        ]
    )
    history = 'query($s: String!) { member(slug: $s, handle: "ann") { corrections'
    nested = nodes(gql.data(history + edges(CORRECTION) + " } }", s=slug)["member"]["corrections"])
    found = gql.data(NODE % (CORRECTION, "id"), id=gid("CorrectionView", correction.pk))["node"]
    assert listed == nested == [found]
    assert found["databaseId"] == correction.pk and found["member"] == "ann"
    assert found["places"] == {"ann": 2, "bob": 1} and found["kind"] == "DISQUALIFY"


def test_an_updated_endpoint_answers_as_its_row_and_node() -> None:
    slug, token, endpoint, _correction = _league()
    gql = GraphQL(f"Token {token}")
    updated = payload(
        gql,
        "updateWebhook",
        f"webhook {{ {WEBHOOK} }}",
        slug=slug,
        endpointId=gid("WebhookItem", endpoint.pk),
        active=False,
    )["webhook"]
    listed = nodes(
        gql.data("query($s: String!) { webhooks(slug: $s)" + edges(WEBHOOK) + " }", s=slug)[
            "webhooks"
        ]
    )
    found = gql.data(NODE % ("id", WEBHOOK), id=gid("WebhookItem", endpoint.pk))["node"]
    assert [updated] == listed == [found]
    assert (found["databaseId"], found["active"]) == (endpoint.pk, False)


LISTS = {
    "webhooks": "query($s: String!) { webhooks(slug: $s)" + edges("id") + " }",
    "webhookDeliveries": "query($s: String!, $e: ID!) { webhookDeliveries(slug: $s, id: $e)"
    + edges("id")
    + " }",
    "organizerChanges": "query($s: String!) { organizerChanges(slug: $s)" + edges("id: at") + " }",
}


@pytest.mark.parametrize("name", list(LISTS))
@pytest.mark.parametrize("caller", ["spectator", "rival"])
def test_an_organizers_list_is_refused_to_anyone_else(name: str, caller: str) -> None:
    slug, _token, endpoint, _correction = _league()
    other = GraphQL() if caller == "spectator" else GraphQL(f"Token {create_organizer('rival')}")
    given: dict[str, Any] = {"s": slug}
    if name == "webhookDeliveries":
        given["e"] = gid("WebhookItem", endpoint.pk)
    body = other.post(LISTS[name], **given)
    assert body.get("data") is None
    code = "organizer_required" if caller == "spectator" else "not_league_organizer"
    assert [error["extensions"]["code"] for error in body["errors"]] == [code]
