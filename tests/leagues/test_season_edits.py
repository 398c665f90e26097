"""A season's scoring and options through the management API (until they have been used), and
the deletes of an empty season and of a scheduled start before its time: REST and GraphQL
alike, refused with a code and changing nothing otherwise."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import CheckIn, Result, Schedule, Season
from leagues.services import schedules
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.graphql.test_league_management_parity import mutate
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.test_schedules import schedule, soon

pytestmark = pytest.mark.django_db(transaction=True)

SETS = ["Castle", "Film Studio", "Funfair", "Haunted House", "Outer Space"]


def patch(client: APIClient, token: str, path: str, body: Any) -> Any:
    return client.patch(f"/api/v1/{path}", body, format="json", headers=org(token))


def delete(client: APIClient, token: str, path: str) -> Any:
    return client.delete(f"/api/v1/{path}", headers=org(token))


def season_row(season: int) -> tuple[Any, ...]:
    found = Season.objects.filter(pk=season)
    fields = ("scoring", "basic_set", "additional_sets", "beach_cup", "winter_mode")
    return tuple(found.values_list(*fields, "robot_difficulty", "name").first() or ())


def test_scoring_changes_until_the_first_result_and_options_until_a_tournament(
    catalogue: Any,
) -> None:
    client, token, rival = APIClient(), create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/"

    edited = ok(patch(client, token, path, {"scoring": {"champion": 12, "by_fans_rank": [3]}}), 200)
    assert edited["scoring"] == {"champion": 12, "finalist": 6, "by_fans_rank": [3], "played": 1}
    options = {"additional_sets": SETS, "robot_difficulty": 3, "winter_park": "normal"}
    edited = ok(patch(client, token, path, options), 200)
    assert edited["options"] == {
        "basic_set": "City",
        "additional_sets": SETS,
        "beach_cup": False,
        "winter_park": "normal",
        "robot_difficulty": 3,
    }

    before = season_row(season)
    bad: list[tuple[dict[str, Any], int, str]] = [
        ({"scoring": {"champion": "12"}}, 400, "invalid"),
        ({"scoring": {"champion": 1001}}, 400, "invalid"),
        ({"scoring": {"by_fans_rank": [1] * 9}}, 400, "invalid"),
        ({"scoring": {"played": True}}, 400, "invalid"),
        ({"scoring": {"bonus": 1}}, 400, "unknown_field"),
        ({"robot_difficulty": 6}, 400, "invalid"),
        ({"additional_sets": SETS[:4]}, 400, "five_sets"),
        ({"additional_sets": [*SETS[:4], "Nowhere"]}, 400, "unknown_set"),
        ({"basic_set": "Moon"}, 400, "invalid"),
    ]
    for body, status, code in bad:
        refused(patch(client, token, path, {"name": "Changed", **body}), status, code)
    refused(patch(client, rival, path, {"scoring": {"champion": 1}}), 403, "not_league_organizer")
    assert season_row(season) == before

    # A tournament opened with the options: they stay as it uses them; the scoring still moves.
    lobby = ok(post(client, path + "tournaments/", {"seats": 2}, org(token)))["id"]
    response = patch(client, token, path, {"robot_difficulty": 2})
    refused(response, 409, "season_has_tournaments")
    assert response.json()["details"]["tournaments"] == [lobby]
    ok(patch(client, token, path, {"scoring": {"champion": 20}}), 200)
    ok(post(client, f"tournaments/{lobby}/cancel/", None, org(token)), 200)
    assert (
        ok(patch(client, token, path, {"robot_difficulty": 2}), 200)["options"]["robot_difficulty"]
        == 2
    )

    # The first result is scored with the table as it was edited; from then on it stays.
    tid = bot_tournament(client, token, slug, season, seats=2)
    champion = Result.objects.get(link__tournament_id=tid, champion=True)
    assert champion.points == 20 + 1
    before = season_row(season)
    refused(patch(client, token, path, {"scoring": {"champion": 5}}), 409, "season_has_results")
    refused(patch(client, token, path, {"beach_cup": False}), 409, "season_has_tournaments")
    assert season_row(season) == before
    # What changes no result still does.
    assert ok(patch(client, token, path, {"name": "Spring 26"}), 200)["name"] == "Spring 26"


def test_graphql_edits_scoring_and_options_and_refuses_as_rest(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    gql = GraphQL(f"Token {token}")
    edited = mutate(
        gql,
        "updateSeason",
        "season { scoring options { beachCup robotDifficulty } }",
        slug=slug,
        seasonId=season,
        scoring={"finalist": 7, "byFansRank": [5, 4]},
        robotDifficulty=4,
    )
    assert edited["scoring"] == {"champion": 10, "finalist": 7, "by_fans_rank": [5, 4], "played": 1}
    assert edited["options"] == {"beachCup": False, "robotDifficulty": 4}
    shown = ok(client.get(f"/api/v1/leagues/{slug}/", headers=org(token)), 200)["seasons"][0]
    assert (shown["scoring"]["finalist"], shown["options"]["robot_difficulty"]) == (7, 4)

    bot_tournament(client, token, slug, season, seats=2)
    before = season_row(season)
    path = f"leagues/{slug}/seasons/{season}/"
    response = patch(client, token, path, {"scoring": {"champion": 1}})
    answer = payload(
        gql, "updateSeason", ERRORS, slug=slug, seasonId=season, scoring={"champion": 1}
    )
    assert answer["errors"] == typed(response.json())
    assert answer["errors"][0]["code"] == "season_has_results"
    assert season_row(season) == before


def test_an_empty_season_is_deleted_and_one_in_use_is_not(catalogue: Any) -> None:
    client, token, rival = APIClient(), create_organizer("org"), create_organizer("rival")
    slug, main = league_with_season(client, token)
    empty = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Typo"}, org(token)))["id"]
    refused(delete(client, rival, f"leagues/{slug}/seasons/{empty}/"), 403, "not_league_organizer")
    refused(delete(client, token, f"leagues/{slug}/seasons/9999/"), 404, "unknown_season")
    assert delete(client, token, f"leagues/{slug}/seasons/{empty}/").status_code == 204
    assert not Season.objects.filter(pk=empty).exists()
    refused(delete(client, token, f"leagues/{slug}/seasons/{empty}/"), 404, "unknown_season")

    # One a tournament joined (even one cancelled since) is part of the record: archive it.
    lobby = ok(
        post(client, f"leagues/{slug}/seasons/{main}/tournaments/", {"seats": 2}, org(token))
    )
    ok(post(client, f"tournaments/{lobby['id']}/cancel/", None, org(token)), 200)
    response = delete(client, token, f"leagues/{slug}/seasons/{main}/")
    refused(response, 409, "season_in_use")
    assert response.json()["details"]["tournaments"] == [lobby["id"]]

    # A closed season is refused as such; GraphQL deletes as REST does.
    gql = GraphQL(f"Token {token}")
    other = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Closed"}, org(token)))["id"]
    ok(post(client, f"leagues/{slug}/seasons/{other}/close/", {"reason": "x"}, org(token)), 200)
    response = delete(client, token, f"leagues/{slug}/seasons/{other}/")
    refused(response, 409, "season_closed")
    answer = payload(gql, "deleteSeason", f"done {{ ok }} {ERRORS}", slug=slug, seasonId=other)
    assert answer["errors"] == typed(response.json())
    ok(post(client, f"leagues/{slug}/seasons/{other}/reopen/", {"reason": "x"}, org(token)), 200)
    assert mutate(gql, "deleteSeason", "done { ok }", slug=slug, seasonId=other) == {"ok": True}
    assert list(Season.objects.values_list("pk", flat=True)) == [main]


def test_a_scheduled_start_is_deleted_before_its_time(catalogue: Any) -> None:
    client, token, rival = APIClient(), create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    opening = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid = ok(post(client, opening, {"seats": 2}, org(token)))["id"]
    path = f"leagues/{slug}/tournaments/{tid}/schedule/"
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=120))
    refused(delete(client, rival, path), 403, "not_league_organizer")
    assert delete(client, token, path).status_code == 204
    refused(client.get(f"/api/v1/{path}"), 404, "not_scheduled")
    assert client.get(f"/api/v1/leagues/{slug}/calendar/").json()["results"] == []
    assert schedules.scheduled_start(tournament_id=tid) == ""  # its queued start finds nothing
    assert client.get(f"/api/v1/tournaments/{tid}/").json()["status"] == "lobby"
    refused(delete(client, token, path), 404, "not_scheduled")
    refused(
        delete(client, token, f"leagues/{slug}/tournaments/9999/schedule/"),
        404,
        "not_league_tournament",
    )

    # GraphQL deletes as REST does; a start whose time has come is refused, and stays.
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=30))
    gql = GraphQL(f"Token {token}")
    assert mutate(gql, "unscheduleStart", "done { ok }", slug=slug, tournament=tid) == {"ok": True}
    assert not Schedule.objects.exists() and not CheckIn.objects.exists()
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=30))
    Schedule.objects.update(starts_at=timezone.now() - timedelta(seconds=1))
    response = delete(client, token, path)
    refused(response, 409, "schedule_settled")
    answer = payload(gql, "unscheduleStart", f"done {{ ok }} {ERRORS}", slug=slug, tournament=tid)
    assert answer["errors"] == typed(response.json())
    assert Schedule.objects.count() == 1
