"""Organizer accounts, co-organizers, league edits and join requests answer the same through
GraphQL as through REST: the same refusal (code, message, details) changing nothing, and the
same views of what was done."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from leagues.models import JoinRequest, League, Member, OrganizerRequest
from leagues.services.accounts import organizer_request_decide
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.graphql.leagues import call
from tests.graphql.rest_shape import rest_json, rest_shape
from tests.graphql.test_league_management_parity import mutate
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db

ACCOUNT = "username status about requestedAt decidedAt reason"
REQUEST = "id handle message status member reason decidedBy createdAt decidedAt"
STANDING = "id league handle status member reason claimCode createdAt decidedAt"
LEAGUE = "slug name description public"
CHANGE = "username change by at"


def rows() -> tuple[Any, ...]:
    users = get_user_model().objects.order_by("pk").values_list("username", "is_active")
    leagues = [
        (league.slug, league.name, league.visibility, list(league.organizers.values_list("pk")))
        for league in League.objects.order_by("pk")
    ]
    requests = JoinRequest.objects.order_by("pk").values_list("handle", "status", "reason")
    return (
        list(users),
        leagues,
        list(requests),
        list(Member.objects.values_list("handle")),
        OrganizerRequest.objects.count(),
    )


def same_refusal(
    client: APIClient,
    method: str,
    path: str,
    body: Any,
    gql: GraphQL,
    mutation: str,
    /,
    **args: Any,
) -> None:
    before = rows()
    response = getattr(client, method)(f"/api/v1/{path}", body, format="json")
    assert response.status_code >= 400, response.content
    assert rows() == before
    answer = payload(gql, mutation, ERRORS, **args)
    assert rows() == before
    assert answer["errors"] == typed(response.json()), mutation


def test_organizing_refuses_the_same() -> None:
    client, anonymous = APIClient(), GraphQL()
    ada, eve = create_organizer("ada"), create_organizer("eve")
    slug, _season = league_with_season(client, ada)
    asked = ok(post(client, f"leagues/{slug}/join-requests/", {"handle": "Zoe"}))
    Member.objects.create(league=League.objects.get(), handle="Ann")
    taken = {"username": "ADA", "about": "x"}
    same_refusal(client, "post", "organizers/", taken, anonymous, "signUpOrganizer", **taken)
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/join-requests/",
        {"handle": "ann"},
        anonymous,
        "askToJoinLeague",
        slug=slug,
        handle="ann",
    )
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/join-requests/",
        {"handle": "zoe"},
        anonymous,
        "askToJoinLeague",
        slug=slug,
        handle="zoe",
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {ada}")
    gql = GraphQL(f"Token {ada}")
    same_refusal(
        client,
        "delete",
        f"leagues/{slug}/organizers/ada/",
        None,
        gql,
        "removeOrganizer",
        slug=slug,
        username="ada",
    )
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/organizers/",
        {"username": "ghost"},
        gql,
        "addOrganizer",
        slug=slug,
        username="ghost",
    )
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/join-requests/999/accept/",
        None,
        gql,
        "acceptJoinRequest",
        slug=slug,
        requestId=999,
    )
    client.credentials(HTTP_AUTHORIZATION=f"Token {eve}")
    theirs = GraphQL(f"Token {eve}")
    same_refusal(
        client,
        "patch",
        f"leagues/{slug}/",
        {"name": "Mine"},
        theirs,
        "updateLeague",
        slug=slug,
        name="Mine",
    )
    same_refusal(client, "delete", f"leagues/{slug}/", None, theirs, "deleteLeague", slug=slug)
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/join-requests/{asked['id']}/decline/",
        {},
        theirs,
        "declineJoinRequest",
        slug=slug,
        requestId=asked["id"],
    )
    refused = call(theirs, "joinRequests", "edges { node { id } }", slug=slug)
    assert refused["errors"][0]["extensions"]["code"] == "not_league_organizer"
    unknown = GraphQL("Bearer nope").post('query { joinRequest(slug: "club") { id } }')
    assert unknown["errors"][0]["extensions"]["code"] == "bad_request_token"


def test_organizing_answers_the_same() -> None:
    client, anonymous = APIClient(), GraphQL()
    signed = mutate(
        anonymous, "signUpOrganizer", f"account {{ {ACCOUNT} token }}", username="bea", about="Hi"
    )
    assert signed["status"] == "PENDING"
    pending = GraphQL(f"Token {signed.pop('token')}")
    account = pending.data(f"query {{ organizerAccount {{ {ACCOUNT} }} }}")["organizerAccount"]
    assert rest_shape(account) == rest_shape(signed)
    request = OrganizerRequest.objects.get(user__username="bea")
    organizer_request_decide(request_id=request.pk, by_user_id=request.user_id, approve=True)
    by_rest = ok(
        client.get("/api/v1/organizers/me/", headers={"Authorization": pending.authorization}), 200
    )
    account = pending.data(f"query {{ organizerAccount {{ {ACCOUNT} }} }}")["organizerAccount"]
    assert rest_shape(account) == rest_json(by_rest) and by_rest["status"] == "approved"

    ada = create_organizer("ada")
    slug, _season = league_with_season(client, ada)
    gql = GraphQL(f"Token {ada}")
    edited = mutate(gql, "updateLeague", f"league {{ {LEAGUE} }}", slug=slug, public=False)
    view = ok(client.get(f"/api/v1/leagues/{slug}/"), 200)
    assert rest_shape(edited) == {
        key: view[key] for key in ("slug", "name", "description", "public")
    }
    added = mutate(gql, "addOrganizer", "organizer { username }", slug=slug, username="bea")
    assert added == {"username": "bea"}
    listed = call(gql, "organizers", "edges { node { username } }", slug=slug)["data"]["result"]
    by_rest = ok(client.get(f"/api/v1/leagues/{slug}/organizers/", headers=org(ada)), 200)
    assert rest_shape(listed) == by_rest["results"]
    changes = call(gql, "organizerChanges", f"edges {{ node {{ {CHANGE} }} }}", slug=slug)
    by_rest = ok(client.get(f"/api/v1/leagues/{slug}/organizer-changes/", headers=org(ada)), 200)
    assert rest_shape(changes["data"]["result"]) == rest_json(by_rest)["results"]
    assert [item["change"] for item in by_rest["results"]] == ["added", "added"]
    mine = call(gql, "myLeagues", f"edges {{ node {{ {LEAGUE} }} }}")["data"]["result"]
    by_rest = ok(client.get("/api/v1/organizers/me/leagues/", headers=org(ada)), 200)
    assert rest_shape(mine) == by_rest["results"]

    asked = mutate(
        anonymous,
        "askToJoinLeague",
        "joinRequest { id league handle status token }",
        slug=slug,
        handle="Zoe",
        message="Hello",
    )
    player = GraphQL(f"Bearer {asked['token']}")
    accepted = mutate(
        gql, "acceptJoinRequest", f"joinRequest {{ {REQUEST} }}", slug=slug, requestId=asked["id"]
    )
    requests = call(gql, "joinRequests", f"edges {{ node {{ {REQUEST} }} }}", slug=slug)
    by_rest = ok(client.get(f"/api/v1/leagues/{slug}/join-requests/", headers=org(ada)), 200)
    assert rest_shape(requests["data"]["result"]) == rest_json(by_rest["results"])
    assert [rest_shape(accepted)] == rest_json(by_rest["results"])
    query = f'query {{ joinRequest(slug: "{slug}") {{ {STANDING} }} }}'
    standing = player.data(query)["joinRequest"]
    headers = {"Authorization": player.authorization}
    path = f"/api/v1/leagues/{slug}/join-requests/mine/"
    assert rest_shape(standing) == rest_json(ok(client.get(path, headers=headers), 200))
    assert standing["claimCode"]
    gone = mutate(gql, "removeOrganizer", "done { ok }", slug=slug, username="bea")
    assert gone == {"ok": True}
