"""Seasons that close: the default season is never an archived one; an organizer closes a
season's results and may reopen them, both in the season's audit; while closed, every write that
would change its results is refused with ``409 season_closed`` naming it, and changes nothing —
a tournament that finishes meanwhile is recorded only once the season is reopened."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import LeagueTournament, Result, Season, SeasonClosure
from leagues.services import recording
from leagues.services.recording import results_owed
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.graphql.test_league_management_parity import mutate
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.test_schedules import schedule, soon
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def patch(client: APIClient, token: str, path: str, body: Any) -> Any:
    return client.patch(f"/api/v1/{path}", body, format="json", headers=org(token))


def test_an_archived_season_is_never_the_default(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, main = league_with_season(client, token)
    bot_tournament(client, token, slug, main, seats=3)
    trial = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Trial"}, org(token)))["id"]
    bot_tournament(client, token, slug, trial, seats=2)
    assert client.get(f"/api/v1/leagues/{slug}/standings/").json()["season"] == trial
    ok(patch(client, token, f"leagues/{slug}/seasons/{trial}/", {"archived": True}), 200)
    assert client.get(f"/api/v1/leagues/{slug}/standings/").json()["season"] == main
    # A newer season with no result yet is still not chosen over the one that has results.
    ok(post(client, f"leagues/{slug}/seasons/", {"name": "Summer"}, org(token)))
    assert client.get(f"/api/v1/leagues/{slug}/standings/").json()["season"] == main


def test_a_closed_season_refuses_every_write_to_its_results_until_reopened(
    catalogue: Any, settings: Any
) -> None:
    client, token = APIClient(), create_organizer("org")
    rival = create_organizer("rival")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    base = f"leagues/{slug}/seasons/{season}/"
    lobby = ok(post(client, base + "tournaments/", {"seats": 2}, org(token)))["id"]
    refused(post(client, base + "close/", {"reason": "x"}, org(rival)), 403, "not_league_organizer")
    closed = ok(post(client, base + "close/", {"reason": "Final standings"}, org(token)), 200)
    assert closed["closed"] is True
    assert [(c["action"], c["by"], c["reason"]) for c in closed["closures"]] == [
        ("close", "org", "Final standings")
    ]
    refused(
        post(client, base + "close/", {"reason": "x"}, org(token)), 409, "season_already_closed"
    )

    before = snapshot(), SeasonClosure.objects.count()
    handle = Result.objects.filter(link__tournament_id=tid).values_list("member__handle")[0][0]
    writes = [
        patch(client, token, base, {"ends_on": "2099-01-01"}),
        correct(client, token, slug, kind="disqualify", reason="x", tournament=tid, member=handle),
        correct(client, token, slug, kind="disqualify", reason="x", season=season, member=handle),
        schedule(client, token, slug, lobby, starts_at=soon(), checkin_minutes=30),
        post(client, base + "tournaments/", {"seats": 2}, org(token)),
    ]
    for response in writes:
        refused(response, 409, "season_closed")
        assert response.json()["details"]["season"] == season
    assert (snapshot(), SeasonClosure.objects.count()) == before
    assert Season.objects.get(pk=season).ends_on is None
    renamed = ok(patch(client, token, base, {"name": "Spring (final)"}), 200)
    assert renamed["name"] == "Spring (final)"

    # The lobby opened before the close plays to its end: its result waits, owed to nobody.
    ok(post(client, f"tournaments/{lobby}/bots/", {"count": 2}, org(token)), 200)
    ok(post(client, f"tournaments/{lobby}/start/", None, org(token)), 200)
    late = LeagueTournament.objects.get(tournament_id=lobby)
    assert late.tournament.status == "finished" and late.recorded_at is None
    assert f"league_result:{lobby}" not in {owed.key for owed in results_owed(now=late.created_at)}
    assert snapshot() == before[0]

    reopened = ok(post(client, base + "reopen/", {"reason": "late result"}, org(token)), 200)
    assert reopened["closed"] is False
    assert [c["action"] for c in reopened["closures"]] == ["close", "reopen"]
    refused(post(client, base + "reopen/", {"reason": "x"}, org(token)), 409, "season_not_closed")
    assert f"league_result:{lobby}" in {owed.key for owed in results_owed(now=late.created_at)}
    assert recording.tournament_record(tournament_id=lobby)  # what the reconciler's task does
    assert LeagueTournament.objects.get(tournament_id=lobby).recorded_at is not None


def test_graphql_closes_and_reopens_as_rest_and_refuses_the_same(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=2)
    gql = GraphQL(f"Token {token}")
    made = mutate(
        gql,
        "closeSeason",
        "season { closed closures { edges { node { action by reason } } } }",
        slug=slug,
        seasonId=season,
        reason="done",
    )
    closure = {"action": "CLOSE", "by": "org", "reason": "done"}
    assert made == {"closed": True, "closures": {"edges": [{"node": closure}]}}
    handle = Result.objects.filter(link__tournament_id=tid).values_list("member__handle")[0][0]
    body = {"kind": "disqualify", "reason": "x", "tournament": tid, "member": handle}
    rest = correct(client, token, slug, **body)
    answer = payload(gql, "correctResult", ERRORS, slug=slug, **{**body, "kind": "DISQUALIFY"})
    assert answer["errors"] == typed(rest.json())
    again = mutate(gql, "reopenSeason", "season { closed }", slug=slug, seasonId=season, reason="r")
    assert again == {"closed": False}


def test_the_admin_changes_only_the_name_of_a_closed_season(catalogue: Any) -> None:
    from django.contrib.admin.sites import site
    from django.forms import modelform_factory

    from leagues.admin import SeasonInline, SeasonInlineForm

    client, token = APIClient(), create_organizer("org")
    slug, season_id = league_with_season(client, token)
    base = f"leagues/{slug}/seasons/{season_id}/"
    ok(post(client, base + "close/", {"reason": "final"}, org(token)), 200)
    season = Season.objects.get(pk=season_id)
    fields = [str(name) for name in SeasonInline.fields or ()]
    form_class = modelform_factory(Season, form=SeasonInlineForm, fields=fields)
    values = {name: getattr(season, name) or "" for name in fields}
    moved = form_class(instance=season, data={**values, "ends_on": "2099-01-01"})
    assert not moved.is_valid() and moved.non_field_errors()
    fresh = Season.objects.get(pk=season_id)  # the refused form wrote its values on ``season``
    renamed = form_class(instance=fresh, data={**values, "name": "Spring (final)"})
    assert renamed.is_valid(), renamed.changed_data
    readonly = site._registry[Season].get_readonly_fields(None, season)  # type: ignore[arg-type]
    assert "ends_on" in readonly and "closed_at" in readonly and "name" not in readonly
