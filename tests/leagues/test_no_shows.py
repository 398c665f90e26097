"""No-shows: with the ``bot`` no-show policy, at its time each player of a scheduled league
tournament who did not check in leaves its seat to a bot of the schedule's strength, its
member's ``no_show`` correction is appended (in its history; it earns and costs nothing in the
standings), and the tournament starts — once, however often the start is run. An open seat still
cancels it. The policy is set through REST and GraphQL alike."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Correction, League, Schedule
from leagues.services import recording, schedules
from tests.graphql.client import GraphQL, nodes
from tests.leagues.helpers import (
    create_organizer,
    league_with_season,
    member_token,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.test_schedules import checkin, its_time_comes, schedule, soon
from tests.leagues.test_season import snapshot
from tests.tournaments.play import ROUND_GUARD, Player
from tournaments.models import Seat, Tournament, TournamentEvent
from tournaments.services.reconcile import reconcile

pytestmark = pytest.mark.django_db(transaction=True)


def members_lobby(
    client: APIClient, token: str, slug: str, season: int, handles: list[str], seats: int
) -> tuple[int, dict[str, str]]:
    """An organizer's lobby of ``seats`` where each member takes a seat in turn (their seat
    tokens by handle), then a rookie bot when a seat is left over."""
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    made = ok(post(client, path, {"seats": seats}, org(token)))
    tokens: dict[str, str] = {}
    for handle in handles:
        body = {"code": made["code"], "member_token": member_token(client, token, slug, handle)}
        tokens[handle] = ok(post(client, "leagues/tournaments/join/", body))["seat"]["token"]
    if seats == len(handles) + 1:
        ok(post(client, f"tournaments/{made['id']}/bots/", {"count": 1}, org(token)), 200)
    return made["id"], tokens


def test_a_no_show_leaves_its_seat_to_a_bot_and_the_tournament_starts(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seats = members_lobby(client, token, slug, season, ["ann", "bob"], seats=3)
    policy = {"no_show": "bot", "bot_level": "steady"}
    made = ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90, **policy))
    assert (made["no_show"], made["bot_level"]) == ("bot", "steady")
    ok(checkin(client, tid, seats["ann"]), 200)
    its_time_comes(tid)

    assert Tournament.objects.get(pk=tid).status == "deck"
    bot = Seat.objects.get(tournament_id=tid, number=1)
    assert (bot.kind, bot.bot_level, bot.name) == ("bot", "steady", "Bot Brick")
    left = TournamentEvent.objects.get(tournament_id=tid, kind="seat_left")
    assert left.payload == {"seat": 1, "reason": "no_show"}
    view = client.get(f"/api/v1/leagues/{slug}/tournaments/{tid}/schedule/").json()
    assert (view["outcome"], view["reason"]) == (
        "started",
        "no_show: seats 2 played by steady bots",
    )
    trail = client.get(f"/api/v1/leagues/{slug}/corrections/").json()["results"]
    assert [(c["kind"], c["member"], c["tournament"], c["reason"]) for c in trail] == [
        ("no_show", "bob", tid, "did not check in")
    ]
    history = client.get(f"/api/v1/leagues/{slug}/members/bob/").json()
    assert [c["kind"] for c in history["corrections"]] == ["no_show"]
    found = GraphQL().data(
        "query($slug: String!) { corrections(slug: $slug) { edges { node { kind member } } } }",
        slug=slug,
    )
    assert nodes(found["corrections"]) == [{"kind": "NO_SHOW", "member": "bob"}]
    refused(checkin(client, tid, seats["bob"]), 401, "bad_token")  # the seat is the bot's

    # Again (a redelivered task, the reconciler's nudge): settled once, nothing more.
    assert schedules.scheduled_start(tournament_id=tid) == "started"
    assert Correction.objects.count() == 1 and not reconcile().requeued

    # Played to its end: the bot's result is the bot member's; the no-show has none.
    ann = Player(client, tid, seats["ann"])
    ann.answer_live(False)
    for _ in range(ROUND_GUARD):
        if ann.get()["status"] == "finished":
            break
        ann.act()
    rows = client.get(f"/api/v1/leagues/{slug}/standings/?season={season}").json()["rows"]
    assert sorted(row["member"] for row in rows) == [
        "Bot Brick (steady)",
        "Bot Cog (rookie)",
        "ann",
    ]
    assert client.get(f"/api/v1/leagues/{slug}/members/bob/").json()["tournaments"] == []
    incremental = snapshot()
    assert recording.league_recompute(league_id=League.objects.get(slug=slug).pk) == 1
    assert snapshot() == incremental and Correction.objects.count() == 1


def test_with_a_seat_open_the_bot_policy_still_cancels(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, _seats = members_lobby(client, token, slug, season, ["ann"], seats=3)
    ok(schedule(client, token, slug, tid, starts_at=soon(), no_show="bot"))
    its_time_comes(tid)
    assert Tournament.objects.get(pk=tid).status == "cancelled"
    assert Seat.objects.get(tournament_id=tid, number=0).kind == "human"
    assert not Correction.objects.exists()
    event = TournamentEvent.objects.get(tournament_id=tid, kind="tournament_cancelled")
    assert event.payload["reason"] == "seats_open: seats 2, 3 not taken"


def test_graphql_sets_the_no_show_policy_as_rest(catalogue: Any) -> None:
    from tests.graphql.test_league_management_parity import mutate

    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, _seats = members_lobby(client, token, slug, season, ["ann"], seats=2)
    made = mutate(
        GraphQL(f"Token {token}"),
        "scheduleStart",
        "schedule { tournament noShow botLevel }",
        slug=slug,
        tournament=tid,
        startsAt=soon(),
        noShow="BOT",
        botLevel="CHAMPION",
    )
    # The schedule's shape types both as enums: GraphQL answers their members.
    assert made == {"tournament": tid, "noShow": "BOT", "botLevel": "CHAMPION"}
    rest = client.get(f"/api/v1/leagues/{slug}/tournaments/{tid}/schedule/").json()
    assert (rest["no_show"], rest["bot_level"]) == ("bot", "champion")


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
)
def test_two_starts_at_the_same_instant_replace_the_no_show_once(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, _seats = members_lobby(client, token, slug, season, ["ann", "bob"], seats=3)
    ok(schedule(client, token, slug, tid, starts_at=soon(), no_show="bot"))
    past = timezone.now() - timedelta(minutes=1)
    Schedule.objects.filter(link__tournament_id=tid).update(starts_at=past)
    barrier, outcomes = threading.Barrier(2), []

    def start() -> None:
        try:
            barrier.wait()
            outcomes.append(schedules.scheduled_start(tournament_id=tid))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert outcomes == ["started", "started"]
    assert sorted(Correction.objects.values_list("member__handle", flat=True)) == ["ann", "bob"]
    kinds = Seat.objects.filter(tournament_id=tid).exclude(kind="robot").order_by("number")
    assert [seat.kind for seat in kinds] == ["bot", "bot", "bot"]
    assert TournamentEvent.objects.filter(tournament_id=tid, kind="seat_left").count() == 2
    assert TournamentEvent.objects.filter(tournament_id=tid, kind="tournament_started").count() == 1
