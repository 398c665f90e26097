"""Who may do what in a league: only its organizers write, an unlisted league is not listed,
join codes are the organizers', a member token is claimed once and links only its own member."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import League, LeagueTournament, Member, MemberSeat, Result
from tests.api.snapshot import everything
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post, refused
from tests.tournaments.play import ROUND_GUARD, Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_the_league_organizers_write(db: None) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    cases = [
        ("leagues/", {"name": "X", "slug": "x"}, {}, 403, "organizer_required"),
        ("leagues/", {"name": "X", "slug": "club"}, org(rival), 409, "slug_taken"),
        ("leagues/", {"name": "X", "slug": "tournaments"}, org(rival), 409, "slug_taken"),
        (f"leagues/{slug}/seasons/", {"name": "S"}, org(rival), 403, "not_league_organizer"),
        (f"leagues/{slug}/seasons/", {"name": "S"}, {}, 403, "organizer_required"),
        (f"leagues/{slug}/members/", {"handle": "ann"}, org(rival), 403, "not_league_organizer"),
        (
            f"leagues/{slug}/webhooks/",
            {"url": "http://127.0.0.1:9/"},
            org(rival),
            403,
            "not_league_organizer",
        ),
        (
            f"leagues/{slug}/seasons/{season}/tournaments/",
            {"seats": 2},
            org(rival),
            403,
            "not_league_organizer",
        ),
        (
            f"leagues/{slug}/seasons/{season + 99}/tournaments/",
            {"seats": 2},
            org(token),
            404,
            "unknown_season",
        ),
        (
            f"leagues/{slug}/seasons/{season}/tournaments/",
            {"seats": 2, "beach_cup": True},
            org(token),
            409,
            "season_options",
        ),
        (
            f"leagues/{slug}/seasons/",
            {"name": "S", "scoring": {"champion": "x"}},
            org(token),
            400,
            "invalid",
        ),
        (
            f"leagues/{slug}/seasons/",
            {"name": "S", "additional_sets": ["Castle"]},
            org(token),
            400,
            "five_sets",
        ),
        ("leagues/nope/seasons/", {"name": "S"}, org(token), 404, "not_found"),
        (
            f"leagues/{slug}/webhooks/",
            {"url": "http://x/", "events": ["nope"]},
            org(token),
            400,
            "invalid",
        ),
        (
            "leagues/tournaments/",
            {"join_code": "NOPE", "name": "A", "seats": 2},
            {},
            404,
            "unknown_join_code",
        ),
    ]
    for path, body, headers, status, code in cases:
        before = everything()
        refused(post(client, path, body, headers), status, code)
        assert everything() == before, path


def test_an_unlisted_league_is_reached_by_its_slug_only_and_join_codes_are_secret(
    db: None,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    league_with_season(client, token, slug="open")
    league_with_season(client, token, slug="hidden", public=False)
    listed = client.get("/api/v1/leagues/").json()["results"]
    assert [league["slug"] for league in listed] == ["open"]
    public_view = client.get("/api/v1/leagues/hidden/").json()
    assert public_view["public"] is False and "join_code" not in public_view["seasons"][0]
    mine = client.get("/api/v1/leagues/hidden/", headers=org(token)).json()
    assert len(mine["seasons"][0]["join_code"]) == 10
    rival = create_organizer("rival")
    theirs = client.get("/api/v1/leagues/hidden/", headers=org(rival)).json()
    assert "join_code" not in theirs["seasons"][0]
    assert client.get("/api/v1/leagues/missing/").json()["code"] == "not_found"


def member(client: APIClient, token: str, slug: str, handle: str) -> str:
    made = ok(post(client, f"leagues/{slug}/members/", {"handle": handle}, org(token)))
    claim = made["claim_code"]
    claimed = ok(post(client, f"leagues/{slug}/members/claim/", {"claim_code": claim}))
    refused(
        post(client, f"leagues/{slug}/members/claim/", {"claim_code": claim}), 403, "bad_claim_code"
    )
    member_token: str = claimed["token"]
    return member_token


def test_member_tokens_link_their_own_member_and_follow_it_to_the_standings(
    catalogue: Any,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    other_slug, _ = league_with_season(client, token, slug="other")
    ann, bob = member(client, token, slug, "ann"), member(client, token, slug, "bob")
    stranger = member(client, token, other_slug, "eve")
    refused(
        post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)), 409, "handle_taken"
    )
    code = client.get(f"/api/v1/leagues/{slug}/", headers=org(token)).json()
    join_code = code["seasons"][0]["join_code"]
    # A host opens a season tournament with the join code, sitting as member ann.
    body = {"join_code": join_code.lower(), "name": "Ann", "seats": 3, "member_token": ann}
    ticket = ok(post(client, "leagues/tournaments/", body))
    tid, room = ticket["id"], ticket["code"]
    assert LeagueTournament.objects.filter(tournament_id=tid).exists()
    refused(
        post(client, "leagues/tournaments/", {**body, "member_token": stranger}),
        403,
        "wrong_league",
    )
    refused(
        post(client, "leagues/tournaments/", {**body, "member_token": "nope"}),
        401,
        "bad_member_token",
    )
    join = {"code": room, "member_token": bob}
    refused(
        post(client, "leagues/tournaments/join/", {**join, "member_token": stranger}),
        403,
        "wrong_league",
    )
    refused(
        post(client, "leagues/tournaments/join/", {**join, "member_token": ann}),
        409,
        "member_seated",
    )
    joined = ok(post(client, "leagues/tournaments/join/", join))
    assert joined["seat"]["id"] == 1
    seats = dict(MemberSeat.objects.values_list("seat__number", "member__handle"))
    assert seats == {0: "ann", 1: "bob"}
    players = [
        Player(client, tid, ticket["seat"]["token"]),
        Player(APIClient(), tid, joined["seat"]["token"]),
    ]
    for player in players:
        player.answer_live(False)
    players[0].post("bots", {"count": 1})
    players[0].post("start")
    for _ in range(ROUND_GUARD):
        if players[0].get()["status"] == "finished":
            break
        assert any(player.act() for player in players)
    results = dict(Result.objects.values_list("member__handle", "place"))
    assert set(results) == {"ann", "bob", "Bot Cog (rookie)"}
    history = client.get(f"/api/v1/leagues/{slug}/members/ann/").json()
    assert history["kind"] == "human" and [h["tournament"] for h in history["tournaments"]] == [tid]
    rows = client.get(f"/api/v1/leagues/{slug}/standings/?season={season}").json()["rows"]
    assert {row["member"]: row["kind"] for row in rows} == {
        "ann": "human",
        "bob": "human",
        "Bot Cog (rookie)": "bot",
    }


def test_the_admin_shows_every_league_page(db: None, admin_client: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    league_with_season(client, token)
    ok(post(client, "leagues/club/members/", {"handle": "ann"}, org(token)))
    for model in (
        "league", "season", "member", "leaguetournament", "result", "standing", "rating",
        "ratingchange", "webhookendpoint", "webhookdelivery",
    ):  # fmt: skip
        page = admin_client.get(f"/admin/leagues/{model}/")
        assert page.status_code == 200, model
    league_pk = League.objects.get().pk
    member_pk = Member.objects.get().pk
    league = admin_client.get(f"/admin/leagues/league/{league_pk}/change/")
    assert league.status_code == 200 and b"join_code" in league.content
    member = admin_client.get(f"/admin/leagues/member/{member_pk}/change/")
    assert member.status_code == 200 and b"claim_hash" not in member.content


def test_the_tournament_list_filters_by_league(catalogue: Any) -> None:
    """`?league=<slug>` lists that league's season tournaments only; an unknown slug, none."""
    client = APIClient()
    token = create_organizer("lister")
    slug, season = league_with_season(client, token, "lister-club")
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    in_league = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    outside = ok(post(client, "tournaments/", {"seats": 2}, org(token)))["id"]
    listed = {t["id"] for t in ok(client.get("/api/v1/tournaments/"), 200)["results"]}
    assert {in_league, outside} <= listed
    league = ok(client.get(f"/api/v1/tournaments/?league={slug}"), 200)
    assert [t["id"] for t in league["results"]] == [in_league] and league["count"] == 1
    assert ok(client.get("/api/v1/tournaments/?league=nobody"), 200)["count"] == 0
    refused(client.get("/api/v1/tournaments/?league=not a slug"), 400, "invalid")


def test_a_season_without_bots_or_advice_makes_its_tournaments_refuse_them(catalogue: Any) -> None:
    """The season's policies reach its tournaments: no bot may sit, no seat may ask for advice;
    a refusal changes nothing. A season allowing both lets its tournaments have both."""
    client = APIClient()
    token = create_organizer("strict")
    slug, _ = league_with_season(
        client, token, "strict-club", bots_allowed=False, advice_allowed=False
    )
    code = client.get(f"/api/v1/leagues/{slug}/", headers=org(token)).json()
    body = {"join_code": code["seasons"][0]["join_code"], "name": "Ann", "seats": 2}
    ticket = ok(post(client, "leagues/tournaments/", body))
    host = {"Authorization": f"Bearer {ticket['seat']['token']}"}
    before = everything()
    refused(
        post(client, f"tournaments/{ticket['id']}/bots/", {"count": 1}, host),
        409,
        "bots_not_allowed",
    )
    assert everything() == before
    ok(post(client, "tournaments/join/", {"code": ticket["code"], "name": "Bob"}))
    ok(post(client, f"tournaments/{ticket['id']}/start/", None, host), 200)
    advice = client.get(f"/api/v1/tournaments/{ticket['id']}/advice/", headers=host)
    refused(advice, 403, "advice_not_allowed")
    _, open_season = league_with_season(client, token, "open-club")
    path = f"leagues/open-club/seasons/{open_season}/tournaments/"
    opened = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    ok(post(client, f"tournaments/{opened}/bots/", {"count": 2}, org(token)), 200)
