"""Leagues, seasons and members are ``Node`` s, and every league list is a connection.

``node(id:)`` answers a league, a season or a member as the league's own queries would for the
same caller; an unlisted league (and what is in it) only to its organizers, since a number is
guessable where a slug is not; a member as the organizers' list shows it only to them. A
connection pages with ``first``/``after`` like every other list.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.graphql.client import GraphQL
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db

NODE = """query($id: ID!) { node(id: $id) { __typename id
  ... on LeagueView { databaseId slug members }
  ... on LeagueItem { databaseId slug }
  ... on SeasonView { databaseId name joinCode }
  ... on MemberHistory { databaseId member kind }
  ... on MemberItem { databaseId member claimed } } }"""


def gid(kind: str, number: Any) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body["errors"]]


def test_a_league_its_season_and_its_member_are_nodes(db: None) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))
    organizer, nobody = GraphQL(f"Token {token}"), GraphQL()
    league = nobody.data(
        "query($slug: String!) { league(slug: $slug) { id databaseId "
        "seasons { edges { node { id databaseId } } } } }",
        slug=slug,
    )["league"]
    assert league["id"] == gid("LeagueView", league["databaseId"])
    found = nobody.data(NODE, id=league["id"])["node"]
    assert (found["__typename"], found["slug"], found["members"]) == ("LeagueView", slug, 1)
    [edge] = league["seasons"]["edges"]
    assert edge["node"] == {"id": gid("SeasonView", season), "databaseId": season}
    seen = nobody.data(NODE, id=edge["node"]["id"])["node"]
    assert (seen["name"], seen["joinCode"]) == ("Spring", None)  # the join code: organizers only
    assert organizer.data(NODE, id=edge["node"]["id"])["node"]["joinCode"]

    listed = organizer.data(
        "query($slug: String!) { members(slug: $slug) { edges { node { id databaseId } } } }",
        slug=slug,
    )["members"]["edges"][0]["node"]
    number = listed["databaseId"]
    assert listed["id"] == gid("MemberItem", number)
    assert organizer.data(NODE, id=listed["id"])["node"]["claimed"] is False
    assert codes(nobody.post(NODE, id=listed["id"])) == ["not_found"]  # organizers only
    history = nobody.data(NODE, id=gid("MemberHistory", number))["node"]
    assert (history["member"], history["kind"]) == ("ann", "HUMAN")


def test_an_unlisted_league_is_no_node_but_to_its_organizers(db: None) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token, "hidden", public=False)
    league_id = GraphQL().data(
        "query($slug: String!) { league(slug: $slug) { databaseId } }", slug=slug
    )["league"]["databaseId"]
    for kind, number in (("LeagueView", league_id), ("LeagueItem", league_id)):
        assert codes(GraphQL().post(NODE, id=gid(kind, number))) == ["not_found"]
        found = GraphQL(f"Token {token}").data(NODE, id=gid(kind, number))["node"]
        assert found["slug"] == slug
    assert codes(GraphQL().post(NODE, id=gid("SeasonView", season))) == ["not_found"]
    rival = GraphQL(f"Token {create_organizer('rival')}")
    assert codes(rival.post(NODE, id=gid("SeasonView", season))) == ["not_found"]


def test_a_league_list_pages_with_first_and_after(db: None) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, _ = league_with_season(client, token)
    for handle in ("ann", "bob", "cy"):
        ok(post(client, f"leagues/{slug}/members/", {"handle": handle}, org(token)))
    organizer = GraphQL(f"Token {token}")
    query = """query($slug: String!, $after: String) { members(slug: $slug, first: 2,
      after: $after) { totalCount pageInfo { hasNextPage endCursor }
      edges { node { member } } } }"""
    first = organizer.data(query, slug=slug, after=None)["members"]
    assert [e["node"]["member"] for e in first["edges"]] == ["ann", "bob"]
    assert (first["totalCount"], first["pageInfo"]["hasNextPage"]) == (3, True)
    rest = organizer.data(query, slug=slug, after=first["pageInfo"]["endCursor"])["members"]
    assert [e["node"]["member"] for e in rest["edges"]] == ["cy"]
    assert rest["pageInfo"]["hasNextPage"] is False
    assert codes(organizer.post(query, slug=slug, after="nope")) == ["invalid"]


def test_a_league_list_pages_backwards_with_last_and_before(db: None) -> None:
    """As every list (``apikit.graphql_pages``): ``last``/``before``, and ``first`` with
    ``last`` refused."""
    client, token = APIClient(), create_organizer("org")
    slug, _ = league_with_season(client, token)
    for handle in ("ann", "bob", "cy"):
        ok(post(client, f"leagues/{slug}/members/", {"handle": handle}, org(token)))
    organizer = GraphQL(f"Token {token}")
    query = """query($slug: String!, $first: Int, $last: Int, $before: String) {
      members(slug: $slug, first: $first, last: $last, before: $before) {
      pageInfo { hasPreviousPage startCursor } edges { node { member } } } }"""
    end = organizer.data(query, slug=slug, first=None, last=2, before=None)["members"]
    assert [e["node"]["member"] for e in end["edges"]] == ["bob", "cy"]
    assert end["pageInfo"]["hasPreviousPage"] is True
    start = end["pageInfo"]["startCursor"]
    head = organizer.data(query, slug=slug, first=None, last=2, before=start)["members"]
    assert [e["node"]["member"] for e in head["edges"]] == ["ann"]
    both = organizer.post(query, slug=slug, first=1, last=1, before=None)
    assert codes(both) == ["invalid"]
