"""A renamed member keeps its old addresses (issue 43): the public page and the REST member
answer a permanent redirect from a former handle to the current one, and GraphQL reads the
member by either. A handle a rename freed may be taken by another member; from then on it
names that member and the redirect ends."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import FormerHandle
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db


def rename(client: APIClient, token: str, slug: str, handle: str, new: str) -> None:
    path = f"/api/v1/leagues/{slug}/members/{handle}/"
    ok(client.patch(path, {"handle": new}, format="json", headers=org(token)), 200)


def moved(answer: Any) -> str:
    assert answer.status_code == 301, (answer.status_code, answer.content)
    return str(answer["Location"])


def test_a_renamed_member_is_found_at_its_old_address_and_back() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token, public=False)
    ok(post(client, f"leagues/{slug}/members/", {"handle": "Ann B"}, org(token)))
    page, api = f"/leagues/{slug}/members/", f"/api/v1/leagues/{slug}/members/"

    rename(client, token, slug, "Ann B", "Ann C")
    assert moved(client.get(f"{page}Ann%20B/")) == f"{page}Ann%20C/"
    assert moved(client.get(f"{api}Ann%20B/")) == f"{api}Ann%20C/"
    assert moved(client.get(f"{api}ann%20b/")) == f"{api}Ann%20C/"  # handles ignore case
    assert client.get(f"{page}Ann%20C/").status_code == 200
    assert ok(client.get(f"{api}Ann%20C/"), 200)["member"] == "Ann C"
    query = '{ member(slug: "SLUG", handle: "Ann B") { member } }'.replace("SLUG", slug)
    graphql = client.post("/graphql/", {"query": query}, format="json").json()
    assert graphql["data"]["member"]["member"] == "Ann C", graphql

    # renamed back: the first address answers again, the second redirects to it
    rename(client, token, slug, "Ann C", "Ann B")
    assert client.get(f"{page}Ann%20B/").status_code == 200
    assert ok(client.get(f"{api}Ann%20B/"), 200)["member"] == "Ann B"
    assert moved(client.get(f"{page}Ann%20C/")) == f"{page}Ann%20B/"
    assert list(FormerHandle.objects.values_list("handle", flat=True)) == ["Ann C"]
    # writes name the member by its current handle only
    stale = client.patch(f"{api}Ann%20C/", {"handle": "Z"}, format="json", headers=org(token))
    assert (stale.status_code, stale.json()["code"]) == (404, "unknown_member")


def test_a_freed_handle_may_name_a_new_member_and_the_redirect_ends() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))
    rename(client, token, slug, "ann", "anna")
    page, api = f"/leagues/{slug}/members/", f"/api/v1/leagues/{slug}/members/"
    assert moved(client.get(f"{page}ann/")) == f"{page}anna/"

    ok(post(client, f"leagues/{slug}/members/", {"handle": "Ann"}, org(token)))
    assert client.get(f"{page}Ann/").status_code == 200
    assert ok(client.get(f"{api}Ann/"), 200)["member"] == "Ann"
    assert client.get(f"{page}ann/").status_code == 404  # the new member's is "Ann"
    assert not FormerHandle.objects.exists()
    # and the first member, renamed to a handle another's rename freed, ends that one too
    ok(post(client, f"leagues/{slug}/members/", {"handle": "bob"}, org(token)))
    rename(client, token, slug, "bob", "rob")
    rename(client, token, slug, "anna", "bob")
    assert ok(client.get(f"{api}bob/"), 200)["member"] == "bob"
    assert list(FormerHandle.objects.values_list("handle", flat=True)) == ["anna"]
