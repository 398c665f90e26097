"""Strict league inputs (issue 43): what a body does not declare is refused with a code rather
than ignored, start times name their zone, and whole numbers are JSON numbers."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import League, Member, Schedule, Season
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("leagues", "0010_verbose_names")  # before handles were unique whatever their case


def unknown(response: Any, field: str) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["details"]["field"]) == ("unknown_field", field), body


def test_a_field_a_body_does_not_declare_is_refused_and_nothing_changes() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"/api/v1/leagues/{slug}/seasons/{season}/"

    # a season's join code is not changed by PATCH: refused, not a 200 that ignores it
    code = {"name": "Summer", "join_code": "ABCDEFGHJK"}
    unknown(client.patch(path, code, format="json", headers=org(token)), "join_code")
    assert Season.objects.get(pk=season).name == "Spring"
    scoring = {"name": "Summer", "scoring": {"champion": 20, "bonus": 1}}
    unknown(client.patch(path, scoring, format="json", headers=org(token)), "scoring.bonus")
    assert Season.objects.get(pk=season).scoring["champion"] == 10

    unknown(
        post(client, f"leagues/{slug}/members/", {"handle": "ann", "nick": "A"}, org(token)),
        "nick",
    )
    assert not Member.objects.filter(handle="ann").exists()
    # inside a nested body, the field is named by its path
    nested = {"name": "Autumn", "scoring": {"champion": 12, "bonus": 3}}
    unknown(post(client, f"leagues/{slug}/seasons/", nested, org(token)), "scoring.bonus")
    league = {"name": "B", "slug": "b", "colour": "red"}
    unknown(post(client, "leagues/", league, org(token)), "colour")
    correction = {"kind": "disqualify", "reason": "r", "season": season, "memberr": "ann"}
    unknown(post(client, f"leagues/{slug}/corrections/", correction, org(token)), "memberr")
    start = {"starts_at": "2030-01-01T10:00:00Z", "timezone": "Europe/Paris"}
    unknown(post(client, f"leagues/{slug}/tournaments/1/schedule/", start, org(token)), "timezone")
    # every unknown field is listed
    body = post(client, f"leagues/{slug}/members/", {"handle": "x", "b": 1, "a": 2}, org(token))
    assert body.json()["details"]["unknown"] == ["a", "b"]
    # what is declared still works
    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))


def test_a_start_time_without_a_zone_is_refused() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid = ok(post(client, path, {"seats": 3}, org(token)))["id"]
    schedule = f"leagues/{slug}/tournaments/{tid}/schedule/"
    later = timezone.now() + timedelta(days=2)

    naive = post(client, schedule, {"starts_at": later.strftime("%Y-%m-%dT%H:%M:%S")}, org(token))
    assert naive.status_code == 400, naive.content
    body = naive.json()
    assert (body["code"], body["details"]) == ("naive_datetime", {"field": "starts_at"})
    assert not Schedule.objects.exists()
    # with its zone (an offset or Z) it is taken, at that instant
    paris = later.astimezone(ZoneInfo("Europe/Paris")).replace(microsecond=0)
    made = ok(post(client, schedule, {"starts_at": paris.isoformat()}, org(token)))
    assert datetime.fromisoformat(made["starts_at"]) == paris


def test_whole_numbers_are_json_numbers() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    for seats in ("3", 3.0, True):
        refused = post(client, path, {"seats": seats}, org(token))
        assert refused.status_code == 400, refused.content
        assert (refused.json()["code"], list(refused.json()["details"])) == ("invalid", ["seats"])
    tid = ok(post(client, path, {"seats": 3}, org(token)))["id"]

    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))
    manual = {"kind": "manual_result", "reason": "r", "tournament": tid, "places": {"ann": "1"}}
    refused = post(client, f"leagues/{slug}/corrections/", manual, org(token))
    assert refused.status_code == 400, refused.content
    assert (refused.json()["code"], refused.json()["details"]) == (
        "invalid",
        {"places": {"ann": ["A whole number is required, as a JSON number."]}},
    )
    as_text = {"kind": "disqualify", "reason": "r", "tournament": str(tid), "member": "ann"}
    refused = post(client, f"leagues/{slug}/corrections/", as_text, org(token))
    assert (refused.status_code, list(refused.json()["details"])) == (400, ["tournament"])
    scoring = {"name": "Autumn", "scoring": {"champion": "12"}}
    refused = post(client, f"leagues/{slug}/seasons/", scoring, org(token))
    assert (refused.status_code, refused.json()["details"]) == (
        400,
        {"scoring": {"champion": ["A whole number is required, as a JSON number."]}},
    )


def test_a_league_page_of_nothing_answers_404() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token, public=False)  # unlisted: found by slug
    ok(post(client, f"leagues/{slug}/members/", {"handle": "Ann B"}, org(token)))

    def status(path: str) -> int:
        answer = client.get(path)
        assert b"frontend/app.js" in answer.content  # the shell either way: it says why in words
        return int(answer.status_code)

    assert status(f"/leagues/{slug}/") == 200
    assert status(f"/leagues/{slug}/seasons/{season}/") == 200
    assert status(f"/leagues/{slug}/members/Ann%20B/") == 200
    assert status("/leagues/nope/") == 404
    assert status(f"/leagues/{slug}/seasons/{season + 100}/") == 404
    assert status(f"/leagues/{slug}/members/nobody/") == 404
    assert status("/leagues/nope/seasons/1/") == 404
    assert client.post(f"/leagues/{slug}/").status_code == 405


def test_handles_are_unique_whatever_their_case() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    members = f"leagues/{slug}/members/"
    ok(post(client, members, {"handle": "Ann"}, org(token)))
    ok(post(client, members, {"handle": "bob"}, org(token)))

    taken = post(client, members, {"handle": "ann"}, org(token))
    assert (taken.status_code, taken.json()["code"]) == (409, "handle_taken"), taken.content
    renamed = client.patch(
        f"/api/v1/{members}bob/", {"handle": "ANN"}, format="json", headers=org(token)
    )
    assert (renamed.status_code, renamed.json()["code"]) == (409, "handle_taken")
    # a member may change the case of its own handle
    ok(
        client.patch(
            f"/api/v1/{members}Ann/", {"handle": "ann"}, format="json", headers=org(token)
        ),
        200,
    )
    assert sorted(Member.objects.values_list("handle", flat=True)) == ["ann", "bob"]


def test_the_migration_tells_apart_handles_made_before_it() -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    league = League.objects.get(slug=slug)
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        for handle in ("Ann", "ann", "ANN", "bob"):
            Member.objects.create(league=league, handle=handle)
        executor.loader.build_graph()
    finally:
        executor.migrate(executor.loader.graph.leaf_nodes())
    handles = Member.objects.filter(league=league).order_by("pk").values_list("handle", flat=True)
    assert list(handles) == ["Ann", "ann (2)", "ANN (3)", "bob"]
