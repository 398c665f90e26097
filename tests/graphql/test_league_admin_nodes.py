"""Webhook endpoints, their deliveries and corrections are ``Node`` s (issue 41).

``node(id:)`` answers an endpoint or a delivery to the league's organizers alone, as the lists
that show them do; anyone else gets ``not_found``, as for a member's organizer view. A
correction is answered to whoever may see its league (the audit trail is public). The lists'
items carry the same global ids, and the id arguments take them.
"""

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
from tests.graphql.client import GraphQL
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db

NODE = """query($id: ID!) { node(id: $id) { __typename id
  ... on WebhookItem { databaseId url active }
  ... on Delivery { databaseId deliveryKind: kind sequence }
  ... on CorrectionView { databaseId kind reason member } } }"""
LISTS = """query($slug: String!, $endpoint: ID!) {
  webhooks(slug: $slug) { edges { node { id databaseId } } }
  webhookDeliveries(slug: $slug, id: $endpoint) { edges { node { id databaseId } } }
  corrections(slug: $slug) { edges { node { id databaseId } } } }"""


def gid(kind: str, number: Any) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body["errors"]]


def _league(public: bool = True) -> tuple[str, str, WebhookEndpoint, WebhookDelivery, Correction]:
    """A league with an endpoint, one delivery of it and a correction."""
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token, public=public)
    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))
    hook = {"url": "https://hooks.example.com/in"}
    endpoint = WebhookEndpoint.objects.get(
        pk=ok(post(client, f"leagues/{slug}/webhooks/", hook, org(token)))["id"]
    )
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, kind="ping", sequence=1, idempotency_key="ping-1"
    )
    correction = Correction.objects.create(
        league=League.objects.get(slug=slug),
        season_id=season,
        member=Member.objects.get(handle="ann"),
        kind=CorrectionKind.DISQUALIFY,
        reason="Cheated",
    )
    return slug, token, endpoint, delivery, correction


def test_an_organizer_reads_an_endpoint_a_delivery_and_a_correction_by_node(db: None) -> None:
    _slug, token, endpoint, delivery, correction = _league()
    organizer = GraphQL(f"Token {token}")
    found = organizer.data(NODE, id=gid("WebhookItem", endpoint.pk))["node"]
    assert found["__typename"] == "WebhookItem"
    assert (found["databaseId"], found["url"], found["active"]) == (endpoint.pk, endpoint.url, True)
    sent = organizer.data(NODE, id=gid("Delivery", delivery.pk))["node"]
    assert (sent["__typename"], sent["deliveryKind"], sent["sequence"]) == ("Delivery", "PING", 1)
    fixed = organizer.data(NODE, id=gid("CorrectionView", correction.pk))["node"]
    assert (fixed["kind"], fixed["reason"], fixed["member"]) == ("DISQUALIFY", "Cheated", "ann")


def test_the_lists_items_carry_the_ids_node_takes(db: None) -> None:
    slug, token, endpoint, delivery, correction = _league()
    lists = GraphQL(f"Token {token}").data(
        LISTS, slug=slug, endpoint=gid("WebhookItem", endpoint.pk)
    )
    [hook] = [edge["node"] for edge in lists["webhooks"]["edges"]]
    [sent] = [edge["node"] for edge in lists["webhookDeliveries"]["edges"]]
    [fixed] = [edge["node"] for edge in lists["corrections"]["edges"]]
    assert hook == {"id": gid("WebhookItem", endpoint.pk), "databaseId": endpoint.pk}
    assert sent == {"id": gid("Delivery", delivery.pk), "databaseId": delivery.pk}
    assert fixed == {"id": gid("CorrectionView", correction.pk), "databaseId": correction.pk}


@pytest.mark.parametrize("caller", ["nobody", "rival"])
def test_anyone_but_its_organizers_gets_not_found_for_an_endpoint_or_a_delivery(
    db: None, caller: str
) -> None:
    _slug, _token, endpoint, delivery, _correction = _league()
    other = GraphQL() if caller == "nobody" else GraphQL(f"Token {create_organizer('rival')}")
    for kind, number in (("WebhookItem", endpoint.pk), ("Delivery", delivery.pk)):
        assert codes(other.post(NODE, id=gid(kind, number))) == ["not_found"]


def test_an_unlisted_leagues_correction_is_its_organizers_alone(db: None) -> None:
    _slug, token, _endpoint, _delivery, correction = _league(public=False)
    named = gid("CorrectionView", correction.pk)
    assert codes(GraphQL().post(NODE, id=named)) == ["not_found"]
    assert GraphQL(f"Token {token}").data(NODE, id=named)["node"]["reason"] == "Cheated"


def test_a_public_leagues_correction_is_anyones_as_its_list_is(db: None) -> None:
    _slug, _token, _endpoint, _delivery, correction = _league()
    found = GraphQL().data(NODE, id=gid("CorrectionView", correction.pk))["node"]
    assert found["reason"] == "Cheated"


def test_the_deliveries_list_refuses_an_id_of_another_type(db: None) -> None:
    slug, token, endpoint, _delivery, _correction = _league()
    body = GraphQL(f"Token {token}").post(LISTS, slug=slug, endpoint=gid("Delivery", endpoint.pk))
    assert codes(body) == ["invalid"]
    assert body["errors"][0]["extensions"]["details"] == {"id": ["Not a global id of this API."]}
