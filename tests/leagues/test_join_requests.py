"""Players ask to join a league: the request's token reads it; an organizer lists, accepts (a
member is made, its claim code reaches the player through the request) or declines it (the
reason reaches the player); each decision is kept with who made it; bad input changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import JoinRequest, Member
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post, refused

pytestmark = pytest.mark.django_db


def ask(client: APIClient, handle: str, slug: str = "club", **more: Any) -> Any:
    return post(client, f"leagues/{slug}/join-requests/", {"handle": handle, **more})


def mine(client: APIClient, token: str, slug: str = "club") -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    return client.get(f"/api/v1/leagues/{slug}/join-requests/mine/", headers=headers)


def decide(client: APIClient, token: str, request_id: int, verb: str, **body: Any) -> Any:
    path = f"leagues/club/join-requests/{request_id}/{verb}/"
    return post(client, path, body or None, org(token))


def rows() -> tuple[Any, ...]:
    requests = JoinRequest.objects.order_by("pk").values_list("handle", "status", "member_id")
    members = Member.objects.order_by("pk").values_list("handle", "claim_hash")
    return list(requests), list(members)


def test_an_accepted_request_makes_a_member_whose_claim_code_reaches_the_player() -> None:
    client = APIClient()
    ada = create_organizer("ada")
    league_with_season(client, ada, public=False)  # an unlisted league takes requests too
    asked = ok(ask(client, "Zoe", message="Friend of Ann's."))
    assert (asked["handle"], asked["status"], asked["league"]) == ("Zoe", "pending", "club")
    waiting = ok(mine(client, asked["token"]), 200)
    assert (waiting["status"], waiting["claim_code"], waiting["member"]) == ("pending", None, None)

    listed = ok(client.get("/api/v1/leagues/club/join-requests/", headers=org(ada)), 200)
    [row] = listed["results"]
    assert (row["handle"], row["message"], row["status"]) == ("Zoe", "Friend of Ann's.", "pending")
    accepted = ok(decide(client, ada, asked["id"], "accept"), 200)
    assert (accepted["status"], accepted["member"], accepted["decided_by"]) == (
        "accepted",
        "Zoe",
        "ada",
    )
    assert accepted["decided_at"] is not None

    status = ok(mine(client, asked["token"]), 200)
    assert (status["status"], status["member"]) == ("accepted", "Zoe")
    claimed = ok(post(client, "leagues/club/members/claim/", {"claim_code": status["claim_code"]}))
    assert claimed["member"] == "Zoe" and claimed["token"]
    assert ok(mine(client, asked["token"]), 200)["claim_code"] is None  # used: shown no more
    refused(decide(client, ada, asked["id"], "decline"), 409, "join_request_decided")


def test_a_declined_request_tells_the_player_why() -> None:
    client = APIClient()
    ada = create_organizer("ada")
    league_with_season(client, ada)
    asked = ok(ask(client, "Spam"))
    declined = ok(decide(client, ada, asked["id"], "decline", reason="We do not know you."), 200)
    assert (declined["status"], declined["member"]) == ("declined", None)
    status = ok(mine(client, asked["token"]), 200)
    assert (status["status"], status["reason"]) == ("declined", "We do not know you.")
    assert not Member.objects.exists()
    refused(decide(client, ada, asked["id"], "accept"), 409, "join_request_decided")
    ok(ask(client, "Spam"))  # the handle is free to ask for again


def test_bad_requests_and_strangers_are_refused_and_change_nothing() -> None:
    client = APIClient()
    ada, eve = create_organizer("ada"), create_organizer("eve")
    league_with_season(client, ada)
    ok(post(client, "leagues/club/members/", {"handle": "Ann"}, org(ada)))
    asked = ok(ask(client, "Zoe"))
    before = rows()
    refused(ask(client, "ann"), 409, "handle_taken")
    refused(ask(client, "Bot Ada"), 409, "handle_taken")
    refused(ask(client, "ZOE"), 409, "join_requested")
    refused(ask(client, ""), 400, "invalid")
    refused(ask(client, "Max", member_token="x"), 400, "unknown_field")
    refused(ask(client, "Max", slug="nowhere"), 404, "not_found")
    refused(mine(client, "wrong"), 401, "bad_request_token")
    refused(mine(client, asked["token"], slug="nowhere"), 401, "bad_request_token")
    refused(client.get("/api/v1/leagues/club/join-requests/mine/"), 401, "bad_request_token")
    refused(
        client.get("/api/v1/leagues/club/join-requests/", headers=org(eve)),
        403,
        "not_league_organizer",
    )
    refused(client.get("/api/v1/leagues/club/join-requests/"), 403, "organizer_required")
    refused(decide(client, eve, asked["id"], "accept"), 403, "not_league_organizer")
    refused(decide(client, ada, 999999, "accept"), 404, "unknown_join_request")
    refused(decide(client, ada, asked["id"], "decline", why="x"), 400, "unknown_field")
    assert rows() == before


def test_a_handle_taken_meanwhile_leaves_the_request_pending() -> None:
    client = APIClient()
    ada = create_organizer("ada")
    league_with_season(client, ada)
    asked = ok(ask(client, "Zoe"))
    ok(post(client, "leagues/club/members/", {"handle": "zoe"}, org(ada)))
    before = rows()
    refused(decide(client, ada, asked["id"], "accept"), 409, "handle_taken")
    assert rows() == before
    assert ok(mine(client, asked["token"]), 200)["status"] == "pending"


def test_a_reissued_claim_code_goes_to_the_organizer_not_the_request() -> None:
    client = APIClient()
    ada = create_organizer("ada")
    league_with_season(client, ada)
    asked = ok(ask(client, "Zoe"))
    ok(decide(client, ada, asked["id"], "accept"), 200)
    reissued = ok(post(client, "leagues/club/members/Zoe/token/", None, org(ada)))
    assert ok(mine(client, asked["token"]), 200)["claim_code"] is None
    ok(post(client, "leagues/club/members/claim/", {"claim_code": reissued["claim_code"]}))
