"""A seat that changes hands (docs/leagues.md, *Decision — a seat that changes hands*): a member
is credited with its seat's result only if it played the seat to the end, through the last
round; a seat its bot held at the end, or that its owner took back only in the last round, gives
the member no place, points, Final or rating change. Recompute gives the same rows."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import League, Rating, RatingChange, Result, Standing
from leagues.services import recording
from tests.leagues.helpers import (
    create_organizer,
    league_with_season,
    member_token,
    ok,
    org,
    post,
)
from tests.leagues.test_no_shows import members_lobby
from tests.leagues.test_schedules import checkin, its_time_comes, schedule, soon
from tests.leagues.test_season import snapshot
from tests.tournaments.play import ROUND_GUARD, Player
from tournaments.models import Seat, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def credited(handle: str) -> dict[str, Any]:
    """What the league holds for ``handle``: its results, standing rows and rating changes."""
    return {
        "results": list(Result.objects.filter(member__handle=handle).values("place", "points")),
        "standings": list(Standing.objects.filter(member__handle=handle).values("played")),
        "rated": RatingChange.objects.filter(member__handle=handle).count(),
        "rating": Rating.objects.filter(member__handle=handle).count(),
    }


def nothing() -> dict[str, Any]:
    return {"results": [], "standings": [], "rated": 0, "rating": 0}


def started(
    client: APIClient, token: str, handles: list[str], seats: int
) -> tuple[int, dict[str, Player]]:
    """An organizer's season tournament of the members (and a rookie bot for a seat left over),
    started, each member playing its own seat over REST."""
    slug, season = league_with_season(client, token)
    tid, tokens = members_lobby(client, token, slug, season, handles, seats)
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
    players = {handle: Player(APIClient(), tid, tokens[handle]) for handle in handles}
    for player in players.values():
        player.answer_live(False)
    return tid, players


def play_until(players: list[Player], done: Any) -> None:
    """The players act until ``done()`` (or nobody has anything left to do)."""
    for _ in range(ROUND_GUARD):
        if done() or not any(player.act() for player in players):
            return
    raise AssertionError("the tournament did not get there")


def status(tid: int) -> str:
    return str(Tournament.objects.get(pk=tid).status)


def round_of(tid: int) -> int:
    return int(Tournament.objects.get(pk=tid).round)


def finished(tid: int) -> bool:
    return status(tid) == "finished"


def recompute_equals_incremental() -> None:
    incremental = snapshot()
    recording.league_recompute(league_id=League.objects.get().pk)
    assert snapshot() == incremental


def test_a_member_who_left_at_once_and_never_came_back_is_credited_nothing(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    tid, players = started(client, token, ["ann", "bob"], seats=3)
    players["ann"].post("leave")  # never a move: a steady bot plays ann's seat to the end
    play_until([players["bob"]], lambda: finished(tid))
    assert finished(tid) and Seat.objects.get(tournament_id=tid, number=0).dropped
    assert credited("ann") == nothing()
    bob = credited("bob")
    assert bob["rated"] == 1 and bob["standings"] == [{"played": 1}]
    # The other two are placed among themselves, 1 and 2: the seat nobody is credited with
    # takes no place from them.
    places = sorted(Result.objects.filter(link__tournament_id=tid).values_list("place", flat=True))
    assert places == [1, 2]
    recompute_equals_incremental()


def test_a_member_who_came_back_before_the_last_round_is_credited_the_seat(
    catalogue: Any,
) -> None:
    client, token = APIClient(), create_organizer("org")
    tid, players = started(client, token, ["ann", "bob"], seats=2)
    players["ann"].post("leave")
    play_until([players["bob"]], lambda: round_of(tid) >= 2)
    players["ann"].post("reclaim")
    play_until(list(players.values()), lambda: finished(tid))
    assert Seat.objects.get(tournament_id=tid, number=0).reclaimed_round == 2
    ann = credited("ann")
    assert len(ann["results"]) == 1 and ann["rated"] == 1 and ann["standings"] == [{"played": 1}]
    assert credited("bob")["rated"] == 1
    recompute_equals_incremental()


def test_a_member_who_came_back_only_in_the_last_round_is_credited_nothing(
    catalogue: Any,
) -> None:
    client, token = APIClient(), create_organizer("org")
    # The Final is round 8; of its two finalists one is bob or cat, whose Deck Phase waits.
    tid, players = started(client, token, ["ann", "bob", "cat"], seats=3)
    players["ann"].post("leave")
    others = [players["bob"], players["cat"]]
    play_until(others, lambda: round_of(tid) == 8 or finished(tid))
    assert round_of(tid) == 8 and status(tid) == "deck"
    players["ann"].post("reclaim")
    play_until(list(players.values()), lambda: finished(tid))
    assert credited("ann") == nothing()
    assert len(credited("bob")["results"]) == len(credited("cat")["results"]) == 1
    recompute_equals_incremental()


def test_a_member_kicked_from_the_lobby_has_no_result(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, _ = league_with_season(client, token)
    body = {"join_code": _join_code(client, token, slug), "name": "Host", "seats": 3}
    ticket = ok(post(client, "leagues/tournaments/", body))
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    ann = ok(
        post(
            client,
            "leagues/tournaments/join/",
            {"code": ticket["code"], "member_token": _member(client, token, slug, "ann")},
        )
    )
    assert ann["id"] == host.id
    kicked = Seat.objects.get(tournament_id=host.id, member_link__member__handle="ann")
    host.post("kick", {"seat": kicked.number})
    host.post("bots", {"count": 2})
    host.answer_live(False)
    host.post("start")
    play_until([host], lambda: finished(host.id))
    assert credited("ann") == nothing()
    recompute_equals_incremental()


def test_a_no_show_whose_seat_a_bot_took_from_the_start_is_credited_nothing(
    catalogue: Any,
) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    tid, seats = members_lobby(client, token, slug, season, ["ann", "bob"], seats=3)
    policy = {"no_show": "bot", "bot_level": "steady"}
    ok(schedule(client, token, slug, tid, starts_at=soon(), checkin_minutes=90, **policy))
    ok(checkin(client, tid, seats["ann"]), 200)
    its_time_comes(tid)
    ann = Player(APIClient(), tid, seats["ann"])
    ann.answer_live(False)
    play_until([ann], lambda: finished(tid))
    assert credited("bob") == nothing()
    assert len(credited("ann")["results"]) == 1
    recompute_equals_incremental()


def _join_code(client: APIClient, token: str, slug: str) -> str:
    league = client.get(f"/api/v1/leagues/{slug}/", headers=org(token)).json()
    code: str = league["seasons"][0]["join_code"]
    return code


def _member(client: APIClient, token: str, slug: str, handle: str) -> str:
    return member_token(client, token, slug, handle)
