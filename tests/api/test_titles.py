"""A tournament's title: given at creation, renamed by its host or organizer at any time (a
``tournament_renamed`` event), checked strictly, and shown in the view, the public list, GraphQL
and a league's history and season export; unnamed, it is ``null`` (clients say "Game #<id>")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.api.test_rest_bad_input import coded
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.tournaments.play import Player, create
from tournaments.models import Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def rename(client: APIClient, tid: int, title: Any, headers: Any = None) -> Any:
    body = {"title": title}
    return client.patch(f"/api/v1/tournaments/{tid}/", body, format="json", headers=headers or {})


def listed(client: APIClient) -> dict[int, Any]:
    items = client.get("/api/v1/tournaments/").json()["results"]
    return {item["id"]: item["title"] for item in items}


def test_a_title_given_at_creation_is_shown_and_an_unnamed_one_is_null(catalogue: Any) -> None:
    client = APIClient()
    named = create(client, title="  Week 3   final ")["id"]
    plain = create(client)["id"]
    assert client.get(f"/api/v1/tournaments/{named}/").json()["title"] == "Week 3 final"
    assert client.get(f"/api/v1/tournaments/{plain}/").json()["title"] is None
    assert listed(client) == {named: "Week 3 final", plain: None}

    before = everything()
    coded(
        client.post(
            "/api/v1/tournaments/", {"name": "H", "seats": 2, "title": "a\x07b"}, format="json"
        ),
        400,
        "bad_title",
    )
    too_long = {"name": "H", "seats": 2, "title": "x" * 61}
    assert coded(client.post("/api/v1/tournaments/", too_long, format="json"), 400, "invalid")[
        "details"
    ] == {"title": ["Ensure this field has no more than 60 characters."]}
    assert everything() == before


def test_the_host_renames_it_with_an_event_and_no_one_else_may(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client)
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    guest = client.post(
        "/api/v1/tournaments/join/", {"code": ticket["code"], "name": "Guest"}, format="json"
    ).json()
    tournament = Tournament.objects.get(pk=host.id)
    renamed = rename(client, host.id, "Derby", host.headers)
    assert renamed.status_code == 200 and renamed.json()["title"] == "Derby"
    event = TournamentEvent.objects.filter(tournament_id=host.id).order_by("seq").last()
    assert event is not None
    assert (event.kind, event.audience, event.payload) == (
        "tournament_renamed",
        None,
        {"title": "Derby"},
    )
    assert Tournament.objects.get(pk=host.id).version == tournament.version + 1

    before = everything()
    assert rename(client, host.id, "Derby", host.headers).status_code == 200  # the same: nothing
    coded(
        rename(client, host.id, "x", {"Authorization": f"Bearer {guest['seat']['token']}"}),
        403,
        "host_only",
    )
    coded(rename(client, host.id, "x"), 403, "host_only")
    coded(rename(client, host.id, "tab\there" + "\x00", host.headers), 400, "invalid")
    coded(rename(client, host.id, 12, host.headers), 400, "invalid")
    coded(
        client.patch(f"/api/v1/tournaments/{host.id}/", {}, format="json", headers=host.headers),
        400,
        "invalid",
    )
    coded(
        client.patch(
            f"/api/v1/tournaments/{host.id}/",
            {"title": "a", "seats": 3},
            format="json",
            headers=host.headers,
        ),
        400,
        "unknown_field",
    )
    assert everything() == before

    assert rename(client, host.id, "", host.headers).json()["title"] is None  # unnamed again


def test_graphql_names_and_renames_as_rest(catalogue: Any) -> None:
    gql = GraphQL()
    made = payload(
        gql,
        "createTournament",
        f"ticket {{ id token }} {ERRORS}",
        seats=2,
        name="Host",
        title="Cup",
    )
    ticket = made["ticket"]
    seat = GraphQL(f"Bearer {ticket['token']}")
    answer = payload(
        seat,
        "renameTournament",
        f"tournament {{ title }} {ERRORS}",
        tournamentId=ticket["id"],
        title="Cup final",
    )
    assert answer == {"tournament": {"title": "Cup final"}, "errors": []}
    query = "query { tournaments(first: 5) { edges { node { databaseId title } } } }"
    nodes = [e["node"] for e in gql.data(query)["tournaments"]["edges"]]
    assert nodes == [{"databaseId": ticket["id"], "title": "Cup final"}]

    client = APIClient()
    refused = rename(client, ticket["id"], "a\x01", {"Authorization": f"Bearer {ticket['token']}"})
    answer = payload(
        seat,
        "renameTournament",
        f"tournament {{ title }} {ERRORS}",
        tournamentId=ticket["id"],
        title="a\x01",
    )
    assert answer["errors"] == typed(refused.json())


@pytest.mark.django_db(transaction=True)
def test_a_league_tournament_is_named_and_shown_in_the_league(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid = ok(post(client, path, {"seats": 2, "title": "Opening night"}, org(token)))["id"]
    ok(post(client, f"tournaments/{tid}/bots/", {"count": 2}, org(token)), 200)
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
    renamed = rename(client, tid, "Opening night (replayed)", org(token))
    assert renamed.json()["title"] == "Opening night (replayed)"

    lines = client.get(f"/api/v1/leagues/{slug}/seasons/{season}/lines/").content.splitlines()
    first = json.loads(lines[0])
    assert (first["type"], first["id"], first["title"]) == (
        "tournament",
        tid,
        "Opening night (replayed)",
    )
    history = client.get(f"/api/v1/leagues/{slug}/members/Bot Ada (rookie)/").json()
    assert [(row["tournament"], row["title"]) for row in history["tournaments"]] == [
        (tid, "Opening night (replayed)")
    ]
