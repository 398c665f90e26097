"""The league lists whose items are rows (deliveries, corrections, webhooks, organizer changes,
members) read through strawberry-django's optimizer: a page costs the same SQL statements
whatever its length, each reading only the columns its query selects."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from leagues.models import (
    Correction,
    CorrectionKind,
    League,
    Member,
    OrganizerChange,
    WebhookDelivery,
    WebhookEndpoint,
)
from tests.graphql.client import GraphQL, edges, nodes
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db

DELIVERY = (
    "id databaseId kind sequence idempotencyKey status attempts lastStatus lastError createdAt "
    "lastAttemptAt deliveredAt resentAt"
)
CORRECTION = "id databaseId kind reason season tournament member match places createdAt"
WEBHOOK = "id databaseId url events active lastSequence createdAt"
CHANGE = "username change by at"
MEMBER = "id databaseId member kind botLevel claimed createdAt"
PAGES = {
    "deliveries": "query($slug: String!, $id: ID!, $n: Int) { webhookDeliveries(slug: $slug, "
    "id: $id, first: $n)" + edges(DELIVERY) + " }",
    "corrections": "query($slug: String!, $n: Int) { corrections(slug: $slug, first: $n)"
    + edges(CORRECTION)
    + " }",
    "webhooks": "query($slug: String!, $n: Int) { webhooks(slug: $slug, first: $n)"
    + edges(WEBHOOK)
    + " }",
    "changes": "query($slug: String!, $n: Int) { organizerChanges(slug: $slug, first: $n)"
    + edges(CHANGE)
    + " }",
    "members": "query($slug: String!, $n: Int) { members(slug: $slug, first: $n)"
    + edges(MEMBER)
    + " }",
}
# The token and its user's permissions (3), the league (and, for its organizers' lists,
# whether the caller organizes it; the deliveries' endpoint), the page and the count (a full
# page does not tell it); a correction's places add the league's members' handles.
BOUND = {"deliveries": 8, "corrections": 7, "webhooks": 7, "changes": 7, "members": 7}


def _league(rows: int) -> tuple[str, str, WebhookEndpoint]:
    """A league with ``rows`` of each: deliveries of one endpoint, corrections naming members
    and their places, endpoints and organizer changes."""
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    league = League.objects.get(slug=slug)
    ok(post(client, f"leagues/{slug}/webhooks/", {"url": "https://hooks.example.com/"}, org(token)))
    endpoint = WebhookEndpoint.objects.get(league=league)
    WebhookEndpoint.objects.bulk_create(
        WebhookEndpoint(league=league, url=f"https://hooks.example.com/{n}", secret="s")
        for n in range(1, rows)
    )
    Member.objects.bulk_create(Member(league=league, handle=f"m{n}") for n in range(rows))
    members = list(Member.objects.filter(league=league).order_by("pk"))
    for n, member in enumerate(members):
        WebhookDelivery.objects.create(
            endpoint=endpoint,
            kind="ping",
            sequence=n + 1,
            idempotency_key=f"ping-{n}",
            payload={"filler": "x" * 1000},
        )
        Correction.objects.create(
            league=league,
            season_id=season,
            member=member,
            kind=CorrectionKind.MANUAL_RESULT,
            reason=f"Fixed {n}",
            places={str(member.pk): 1, str(members[0].pk): 2},
        )
    OrganizerChange.objects.bulk_create(
        OrganizerChange(league=league, change="added", username=f"u{n}", by="org")
        for n in range(rows - OrganizerChange.objects.filter(league=league).count())
    )
    return slug, token, endpoint


def _page(name: str, size: int, first: int = 0) -> tuple[list[str], list[dict[str, Any]]]:
    """A page of ``first`` (default ``size``) rows of list ``name`` in a league of ``size`` of
    each, and its statements."""
    slug, token, endpoint = _league(size)
    given = {"slug": slug, "n": first or size}
    if name == "deliveries":
        given["id"] = base64.b64encode(f"WebhookItem:{endpoint.pk}".encode()).decode()
    with CaptureQueriesContext(connection) as captured:
        page = GraphQL(f"Token {token}").data(PAGES[name], **given)
    found = nodes(next(iter(page.values())))
    assert len(found) == size
    return [query["sql"] for query in captured.captured_queries], found


@pytest.mark.parametrize("name", list(PAGES))
@pytest.mark.parametrize("size", [2, 20])
def test_a_page_costs_the_same_statements_whatever_its_length(name: str, size: int) -> None:
    statements, _found = _page(name, size)
    assert len(statements) == BOUND[name]


def test_a_delivery_page_reads_no_payload() -> None:
    statements, found = _page("deliveries", 20)
    assert not any('"payload"' in sql for sql in statements)
    assert [node["sequence"] for node in found] == list(range(20, 0, -1))


def test_a_correction_page_names_its_members_and_places() -> None:
    _statements, found = _page("corrections", 20)
    first = found[0]["member"]
    assert all(node["places"] == {node["member"]: 1, first: 2} for node in found[1:])
    assert found[0]["places"] == {first: 2}


@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_that_ends_the_list_is_not_counted(name: str) -> None:
    statements, _found = _page(name, 2, first=100)
    assert len(statements) == BOUND[name] - 1
    assert not any("COUNT(" in sql for sql in statements)
