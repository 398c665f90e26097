"""A league's organizers manage it through the API alone: co-organizers by username (never
the last one removed), the league's name, description and visibility, its deletion while no
tournament was played in it, and the list of their own leagues, unlisted included."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from leagues.models import League, LeagueTournament, Member, Season
from tests.admin.forms import form_data
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)
from tournaments.models import Status, Tournament


def organizers(client: APIClient, token: str, slug: str = "club") -> list[str]:
    found = ok(client.get(f"/api/v1/leagues/{slug}/organizers/", headers=org(token)), 200)
    return [item["username"] for item in found["results"]]


def delete(client: APIClient, token: str, path: str) -> Any:
    return client.delete(f"/api/v1/{path}", headers=org(token))


def patch(client: APIClient, token: str, path: str, body: Any) -> Any:
    return client.patch(f"/api/v1/{path}", body, format="json", headers=org(token))


def league_rows() -> list[tuple[Any, ...]]:
    leagues = League.objects.order_by("pk")
    return [(lg.slug, lg.name, lg.description, lg.visibility, organizers_of(lg)) for lg in leagues]


def organizers_of(league: League) -> list[str]:
    return sorted(league.organizers.values_list("username", flat=True))


@pytest.mark.django_db
def test_co_organizers_are_added_and_removed_but_the_last_one_stays() -> None:
    client = APIClient()
    ada, bea, eve = create_organizer("ada"), create_organizer("bea"), create_organizer("eve")
    slug, _season = league_with_season(client, ada)
    pending = ok(post(client, "organizers/", {"username": "newbie", "about": "hi"}))["token"]
    before = league_rows()
    body = {"username": "bea"}
    refused(
        post(client, f"leagues/{slug}/organizers/", body, org(eve)), 403, "not_league_organizer"
    )
    refused(post(client, f"leagues/{slug}/organizers/", body), 403, "organizer_required")
    refused(post(client, f"leagues/{slug}/organizers/", body, org(pending)), 403, "not_organizer")
    for nobody in ("newbie", "ghost"):  # not approved, or no account at all
        answer = post(client, f"leagues/{slug}/organizers/", {"username": nobody}, org(ada))
        refused(answer, 404, "unknown_organizer")
    refused(
        post(client, f"leagues/{slug}/organizers/", {"user": "bea"}, org(ada)), 400, "unknown_field"
    )
    refused(delete(client, ada, f"leagues/{slug}/organizers/ada/"), 409, "last_organizer")
    refused(delete(client, ada, f"leagues/{slug}/organizers/eve/"), 404, "unknown_organizer")
    assert league_rows() == before

    assert ok(post(client, f"leagues/{slug}/organizers/", body, org(ada))) == {"username": "bea"}
    refused(post(client, f"leagues/{slug}/organizers/", body, org(ada)), 409, "already_organizer")
    assert organizers(client, bea) == ["ada", "bea"]
    ok(post(client, f"leagues/{slug}/seasons/", {"name": "Autumn"}, org(bea)))  # bea organizes
    assert delete(client, bea, f"leagues/{slug}/organizers/ada/").status_code == 204
    refused(
        post(client, f"leagues/{slug}/seasons/", {"name": "X"}, org(ada)),
        403,
        "not_league_organizer",
    )
    refused(delete(client, bea, f"leagues/{slug}/organizers/bea/"), 409, "last_organizer")
    assert organizers(client, bea) == ["bea"]
    assert changes(client, bea) == [
        ("ada", "added", "ada"),  # the league's creator
        ("bea", "added", "ada"),
        ("ada", "removed", "bea"),
    ]
    refused(client.get(changes_of(slug), headers=org(ada)), 403, "not_league_organizer")


def changes_of(slug: str) -> str:
    return f"/api/v1/leagues/{slug}/organizer-changes/"


def changes(client: APIClient, token: str, slug: str = "club") -> list[tuple[str, str, str]]:
    found = ok(client.get(changes_of(slug), headers=org(token)), 200)["results"]
    assert all(item["at"] for item in found)
    return [(item["username"], item["change"], item["by"]) for item in found]


@pytest.mark.django_db
def test_organizers_changed_in_the_admin_are_audited_as_the_apis_are(admin_client: Any) -> None:
    client = APIClient()
    ada, bea = create_organizer("ada"), create_organizer("bea")
    slug, _season = league_with_season(client, ada)
    league = League.objects.get(slug=slug)
    url = f"/admin/leagues/league/{league.pk}/change/"
    data = form_data(admin_client.get(url).content.decode())
    data["organizers"] = [str(get_user_model().objects.get(username="bea").pk)]
    assert admin_client.post(url, data).status_code == 302
    assert changes(client, bea) == [
        ("ada", "added", "ada"),
        ("bea", "added", "admin"),
        ("ada", "removed", "admin"),
    ]


@pytest.mark.django_db
def test_a_league_is_edited_strictly_and_ones_own_leagues_are_listed_unlisted_included() -> None:
    client = APIClient()
    ada, eve = create_organizer("ada"), create_organizer("eve")
    slug, _season = league_with_season(client, ada)
    league_with_season(client, eve, slug="other")
    before = league_rows()
    for bad in ({"slug": "moved"}, {"name": ""}, {"public": "maybe"}, {"visibility": "unlisted"}):
        assert patch(client, ada, f"leagues/{slug}/", bad).status_code == 400, bad
    refused(patch(client, eve, f"leagues/{slug}/", {"name": "Mine"}), 403, "not_league_organizer")
    refused(patch(client, "", f"leagues/{slug}/", {"name": "Mine"}), 401, "bad_token")
    assert league_rows() == before

    body = {"name": "Club of Tuesdays", "description": "Every Tuesday.", "public": False}
    edited = ok(patch(client, ada, f"leagues/{slug}/", body), 200)
    assert (edited["name"], edited["description"], edited["public"]) == (
        "Club of Tuesdays",
        "Every Tuesday.",
        False,
    )
    assert edited["slug"] == slug and len(edited["seasons"]) == 1
    public = ok(client.get("/api/v1/leagues/"), 200)["results"]
    assert [item["slug"] for item in public] == ["other"]
    mine = ok(client.get("/api/v1/organizers/me/leagues/", headers=org(ada)), 200)["results"]
    assert [(item["slug"], item["public"]) for item in mine] == [(slug, False)]
    refused(client.get("/api/v1/organizers/me/leagues/"), 403, "organizer_required")
    ok(patch(client, ada, f"leagues/{slug}/", {"public": True}), 200)
    assert League.objects.get(slug=slug).name == "Club of Tuesdays"  # the fields not given kept


@pytest.mark.django_db(transaction=True)
def test_a_league_is_deleted_only_while_no_tournament_was_played_in_it(catalogue: Any) -> None:
    client = APIClient()
    ada, eve = create_organizer("ada"), create_organizer("eve")
    slug, season = league_with_season(client, ada)
    lobby = ok(
        post(client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 2}, org(ada))
    )
    ok(post(client, f"leagues/{slug}/members/", {"handle": "Ann"}, org(ada)))
    refused(delete(client, eve, f"leagues/{slug}/"), 403, "not_league_organizer")
    assert delete(client, ada, f"leagues/{slug}/").status_code == 204
    assert not League.objects.filter(slug=slug).exists()
    assert not Member.objects.exists() and not LeagueTournament.objects.exists()
    assert Tournament.objects.get(pk=lobby["id"]).status == Status.LOBBY  # an ordinary lobby now
    refused(client.get(f"/api/v1/leagues/{slug}/"), 404, "not_found")

    played, season = league_with_season(client, ada, slug="played")
    bot_tournament(client, ada, played, season, seats=2)
    before = league_rows(), Season.objects.count(), LeagueTournament.objects.count()
    answer = delete(client, ada, f"leagues/{played}/")
    refused(answer, 409, "league_played")
    assert answer.json()["details"] == {"tournaments": 1}
    assert (league_rows(), Season.objects.count(), LeagueTournament.objects.count()) == before


@pytest.mark.django_db
def test_every_organizer_of_a_league_hosts_its_tournaments_and_no_other(catalogue: Any) -> None:
    client = APIClient()
    ada, bea, eve = create_organizer("ada"), create_organizer("bea"), create_organizer("eve")
    slug, season = league_with_season(client, ada)
    ok(post(client, f"leagues/{slug}/organizers/", {"username": "bea"}, org(ada)))
    league_game = ok(
        post(client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 2}, org(ada))
    )["id"]
    own_game = ok(post(client, "tournaments/", {"seats": 2}, org(ada)))["id"]

    renamed = patch(client, bea, f"tournaments/{league_game}/", {"title": "Week 1"})
    assert ok(renamed, 200)["title"] == "Week 1"
    ok(post(client, f"tournaments/{league_game}/bots/", {"count": 2}, org(bea)), 200)
    refused(patch(client, eve, f"tournaments/{league_game}/", {"title": "X"}), 403, "host_only")
    refused(patch(client, bea, f"tournaments/{own_game}/", {"title": "X"}), 403, "host_only")
    assert Tournament.objects.get(pk=league_game).title == "Week 1"
    assert Tournament.objects.get(pk=own_game).title == ""
