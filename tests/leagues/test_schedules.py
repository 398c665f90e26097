"""Scheduled starts with check-in: at its time a league tournament starts by itself when every
seat is taken and every player checked in, or is cancelled with the reason; the reconciler
queues the start (a queued task is only a nudge); refusals are coded and change nothing; the
league's calendar lists the scheduled tournaments."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import CheckIn, Schedule, Season
from tests.api.snapshot import everything
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post, refused
from tournaments.models import Tournament, TournamentEvent
from tournaments.services.reconcile import reconcile

pytestmark = pytest.mark.django_db(transaction=True)


def lobby(client: APIClient, token: str, slug: str, season: int) -> tuple[int, str]:
    """A 3-seat season lobby: one player (its seat token) and two bots."""
    made = ok(
        post(client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 3}, org(token))
    )
    ticket = ok(post(client, "tournaments/join/", {"code": made["code"], "name": "Ann"}))
    ok(post(client, f"tournaments/{made['id']}/bots/", {"count": 2}, org(token)), 200)
    return made["id"], ticket["seat"]["token"]


def schedule(client: APIClient, token: str, slug: str, tid: int, **body: Any) -> Any:
    return post(client, f"leagues/{slug}/tournaments/{tid}/schedule/", body, org(token))


def checkin(client: APIClient, tid: int, seat_token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {seat_token}"} if seat_token else None
    return post(client, f"leagues/tournaments/{tid}/checkin/", None, headers)


def soon() -> str:
    return (timezone.now() + timedelta(hours=1)).isoformat()


def its_time_comes(tid: int) -> None:
    """The start time passes (the clock is the row's), and the reconciler's pass finds it owed."""
    Schedule.objects.filter(link__tournament_id=tid).update(
        starts_at=timezone.now() - timedelta(minutes=1)
    )
    assert f"league_start:{tid}" in reconcile().requeued


def test_a_tournament_whose_players_checked_in_starts_by_itself(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seat = lobby(client, token, slug, season)
    made = ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90))
    assert made["outcome"] is None and made["checked_in"] == []
    assert ok(checkin(client, tid, seat), 200)["seat"] == 1
    assert ok(checkin(client, tid, seat), 200)["seat"] == 1  # again: the same check-in
    its_time_comes(tid)
    assert Tournament.objects.get(pk=tid).status == "deck"
    view = client.get(f"/api/v1/leagues/{slug}/tournaments/{tid}/schedule/").json()
    assert (view["outcome"], view["checked_in"], view["status"]) == ("started", [1], "deck")
    assert not reconcile().requeued  # settled: owed no more
    refused(checkin(client, tid, seat), 409, "checkin_closed")


def test_a_tournament_with_a_player_missing_is_cancelled_with_the_reason(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, _seat = lobby(client, token, slug, season)
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90))
    its_time_comes(tid)
    assert Tournament.objects.get(pk=tid).status == "cancelled"
    event = TournamentEvent.objects.get(tournament_id=tid, kind="tournament_cancelled")
    assert event.payload["reason"] == "checkin_incomplete: seats 1 not checked in"
    calendar = client.get(f"/api/v1/leagues/{slug}/calendar/").json()["results"]
    assert [(c["tournament"], c["outcome"]) for c in calendar] == [(tid, "cancelled")]


def test_a_lobby_reads_its_schedule_with_its_league_and_the_callers_check_in(
    catalogue: Any,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seat = lobby(client, token, slug, season)
    other, other_seat = lobby(client, token, slug, season)
    path = f"/api/v1/leagues/tournaments/{tid}/checkin/"
    refused(client.get(path), 404, "not_scheduled")
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90))
    anyone = ok(client.get(path), 200)
    assert (anyone["league"], anyone["you"], anyone["checked_in"]) == (slug, None, [])
    mine = {"Authorization": f"Bearer {seat}"}
    assert ok(client.get(path, headers=mine), 200)["you"] == {"seat": 1, "checked_in": False}
    ok(checkin(client, tid, seat), 200)
    assert ok(client.get(path, headers=mine), 200)["you"] == {"seat": 1, "checked_in": True}
    elsewhere = ok(client.get(path, headers={"Authorization": f"Bearer {other_seat}"}), 200)
    assert (elsewhere["you"], elsewhere["checked_in"]) == (None, [1])
    refused(client.get(path, headers={"Authorization": "Bearer nope"}), 401, "bad_token")
    refused(client.get(f"/api/v1/leagues/tournaments/{other}/checkin/"), 404, "not_scheduled")


def test_refused_schedules_and_checkins_change_nothing(catalogue: Any) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    tid, seat = lobby(client, token, slug, season)
    other, other_seat = lobby(client, token, slug, season)
    refused(checkin(client, tid, seat), 409, "not_scheduled")
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=1))
    before = everything(), list(Schedule.objects.values()), CheckIn.objects.count()
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    refused(schedule(client, token, slug, tid, starts_at=past), 400, "schedule_in_past")
    refused(schedule(client, token, slug, 99999, starts_at=soon()), 404, "not_league_tournament")
    refused(schedule(client, rival, slug, tid, starts_at=soon()), 403, "not_league_organizer")
    refused(schedule(client, token, slug, tid, starts_at="soon"), 400, "invalid")
    refused(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=0), 400, "invalid")
    refused(checkin(client, tid, seat), 409, "checkin_not_open")
    refused(checkin(client, tid, None), 403, "seat_required")
    refused(checkin(client, tid, other_seat), 403, "wrong_tournament")
    refused(
        client.get(f"/api/v1/leagues/{slug}/tournaments/{other}/schedule/"), 404, "not_scheduled"
    )
    assert (everything(), list(Schedule.objects.values()), CheckIn.objects.count()) == before
    ok(post(client, f"tournaments/{other}/start/", None, org(token)), 200)
    refused(schedule(client, token, slug, other, starts_at=soon()), 409, "not_in_lobby")


def test_graphql_schedules_checks_in_and_refuses_as_rest(catalogue: Any) -> None:
    from tests.graphql.client import GraphQL
    from tests.graphql.test_league_management_parity import mutate, same_refusal

    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seat = lobby(client, token, slug, season)
    organizer, player = GraphQL(f"Token {token}"), GraphQL(f"Bearer {seat}")
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/tournaments/{tid}/schedule/",
        {"starts_at": past},
        organizer,
        "scheduleStart",
        slug=slug,
        tournament=tid,
        startsAt=past,
    )
    view = "schedule { tournament status startsAt checkinOpensAt checkedIn outcome }"
    made = mutate(
        organizer,
        "scheduleStart",
        view,
        slug=slug,
        tournament=tid,
        startsAt=soon(),
        checkinMinutes=90,
    )
    assert (made["tournament"], made["status"], made["checkedIn"], made["outcome"]) == (
        tid,
        "LOBBY",
        [],
        None,
    )
    checked = mutate(player, "checkIn", "checkIn { seat }", tournament=tid)
    assert checked == {"seat": 1}
    rest = client.get(f"/api/v1/leagues/{slug}/calendar/").json()["results"]
    body = organizer.post(
        "query($slug: String!) { calendar(slug: $slug) "
        "{ edges { node { tournament checkedIn outcome } } } }",
        slug=slug,
    )
    assert [e["node"] for e in body["data"]["calendar"]["edges"]] == [
        {
            "tournament": r["tournament"],
            "checkedIn": r["checked_in"],
            "outcome": r["outcome"] and r["outcome"].upper(),
        }
        for r in rest
    ]


def test_a_start_is_scheduled_on_a_day_of_its_season_only(catalogue: Any) -> None:
    from tests.graphql.client import GraphQL
    from tests.graphql.test_league_management_parity import same_refusal

    client = APIClient()
    token = create_organizer("org")
    today = timezone.localdate()
    dates: dict[str, Any] = {
        "starts_on": today.isoformat(),
        "ends_on": (today + timedelta(days=3)).isoformat(),
    }
    slug, season = league_with_season(client, token, **dates)
    tid, _seat = lobby(client, token, slug, season)
    before = everything(), Schedule.objects.count()
    late = (timezone.now() + timedelta(days=5)).isoformat()
    response = schedule(client, token, slug, tid, starts_at=late)
    refused(response, 400, "schedule_outside_season")
    assert response.json()["details"] == {
        "day": (today + timedelta(days=5)).isoformat(),
        **dates,
    }
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    path = f"leagues/{slug}/tournaments/{tid}/schedule/"
    gql = GraphQL(f"Token {token}")
    args = {"slug": slug, "tournament": tid, "startsAt": late}
    same_refusal(client, "post", path, {"starts_at": late}, gql, "scheduleStart", **args)
    assert (everything(), Schedule.objects.count()) == before
    ok(schedule(client, token, slug, tid, starts_at=soon()))


def test_new_season_dates_that_would_strand_a_scheduled_start_are_refused(
    catalogue: Any,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, _seat = lobby(client, token, slug, season)
    starts_at = timezone.now() + timedelta(hours=1)
    ok(schedule(client, token, slug, tid, starts_at=starts_at.isoformat()))
    start_day = timezone.localtime(starts_at).date()
    path = f"/api/v1/leagues/{slug}/seasons/{season}/"
    before = everything(), list(Season.objects.values())
    moved = {"starts_on": (start_day + timedelta(days=1)).isoformat()}
    response = client.patch(path, moved, format="json", headers=org(token))
    refused(response, 409, "schedules_outside_season")
    assert response.json()["details"]["tournaments"] == [
        {"tournament": tid, "starts_at": starts_at.isoformat()}
    ]
    ended = {"ends_on": (start_day - timedelta(days=1)).isoformat()}
    refused(
        client.patch(path, ended, format="json", headers=org(token)),
        409,
        "schedules_outside_season",
    )
    assert (everything(), list(Season.objects.values())) == before
    last_day = {"ends_on": start_day.isoformat()}
    ok(client.patch(path, last_day, format="json", headers=org(token)), 200)
    ok(client.patch(path, {"archived": True}, format="json", headers=org(token)), 200)
    refused(schedule(client, token, slug, tid, starts_at=soon()), 409, "season_archived")


def test_the_bot_no_show_policy_needs_a_season_with_bots(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token, bots_allowed=False)
    made = ok(
        post(client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 2}, org(token))
    )
    before = everything(), Schedule.objects.count()
    refused(
        schedule(client, token, slug, made["id"], starts_at=soon(), no_show="bot"),
        409,
        "bots_not_allowed",
    )
    refused(
        schedule(client, token, slug, made["id"], starts_at=soon(), no_show="x"), 400, "invalid"
    )
    assert (everything(), Schedule.objects.count()) == before
    view = ok(schedule(client, token, slug, made["id"], starts_at=soon()))
    assert (view["no_show"], view["bot_level"]) == ("cancel", "rookie")


def test_graphql_reads_a_lobbys_schedule_and_check_in_as_rest(catalogue: Any) -> None:
    from tests.graphql.client import GraphQL

    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seat = lobby(client, token, slug, season)
    other, _other_seat = lobby(client, token, slug, season)
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90))
    ok(checkin(client, tid, seat), 200)
    query = """query($t: Int!) { tournamentSchedule(tournament: $t) {
        tournament league startsAt checkedIn outcome you { seat checkedIn } } }"""
    found = GraphQL(f"Bearer {seat}").data(query, t=tid)["tournamentSchedule"]
    rest = client.get(
        f"/api/v1/leagues/tournaments/{tid}/checkin/", headers={"Authorization": f"Bearer {seat}"}
    ).json()
    assert found == {
        "tournament": tid,
        "league": slug,
        "startsAt": found["startsAt"],
        "checkedIn": rest["checked_in"],
        "outcome": rest["outcome"],
        "you": {"seat": rest["you"]["seat"], "checkedIn": rest["you"]["checked_in"]},
    }
    assert found["startsAt"][:19] == rest["starts_at"][:19]
    assert GraphQL().data(query, t=tid)["tournamentSchedule"]["you"] is None
    missing = GraphQL().post(query, t=other)
    assert [e["extensions"]["code"] for e in missing["errors"]] == ["not_scheduled"]
