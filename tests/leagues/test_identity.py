"""Who a standings row is: each bot strength is a member of its own (a rookie "Bot Cog" and a
steady one are rated apart), a recomputation splits bots an older recording merged, and the
standings rank humans alone or bots alone on request, through REST and GraphQL alike."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from leagues.models import Member, MemberKind, Rating, Result
from tests.graphql.client import GraphQL
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    member_token,
    members_tournament,
)
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_bot_strength_is_its_own_member_and_rating(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    bot_tournament(client, token, slug, season, seats=2, level="rookie")
    bot_tournament(client, token, slug, season, seats=2, level="steady")
    bots = dict(Member.objects.values_list("handle", "bot_level"))
    assert bots == {
        "Bot Ada (rookie)": "rookie",
        "Bot Brick (rookie)": "rookie",
        "Bot Ada (steady)": "steady",
        "Bot Brick (steady)": "steady",
    }
    rated = dict(Rating.objects.values_list("member__handle", "tournaments"))
    assert rated == dict.fromkeys(bots, 1)
    history = client.get(f"/api/v1/leagues/{slug}/members/Bot Ada (steady)/").json()
    assert history["kind"] == "bot" and len(history["tournaments"]) == 1


def test_a_recomputation_splits_bots_an_older_recording_merged(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    bot_tournament(client, token, slug, season, seats=2, level="rookie")
    bot_tournament(client, token, slug, season, seats=2, level="champion")
    split = snapshot()
    # As recordings before strengths were told apart left it: one "Bot Ada" for both.
    league_id = Member.objects.first().league_id  # type: ignore[union-attr]
    for name in ("Bot Ada", "Bot Brick"):
        merged = Member.objects.create(league_id=league_id, handle=name, kind=MemberKind.BOT)
        Result.objects.filter(member__handle__startswith=f"{name} (").update(member=merged)
    Member.objects.filter(handle__endswith=")").delete()
    assert Member.objects.count() == 2

    out = StringIO()
    call_command("league_recompute", slug, stdout=out)
    assert out.getvalue().strip() == f"Replayed 2 tournaments of {slug}."
    assert snapshot() == split
    assert not Member.objects.filter(handle__in=["Bot Ada", "Bot Brick"]).exists()


def test_the_standings_rank_humans_or_bots_alone_on_request(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    tokens = [member_token(client, token, slug, handle) for handle in ("ann", "bob")]
    members_tournament(client, token, slug, tokens, bots=2)
    path = f"/api/v1/leagues/{slug}/standings/"
    everyone = client.get(path).json()
    assert everyone["kind"] == "all" and len(everyone["rows"]) == 4
    assert client.get(f"{path}?kind=all").json() == everyone
    for kind, handles in (
        ("human", {"ann", "bob"}),
        ("bot", {"Bot Cog (rookie)", "Bot Dot (rookie)"}),
    ):
        alone = client.get(f"{path}?kind={kind}").json()
        assert alone["kind"] == kind
        assert {row["member"] for row in alone["rows"]} == handles
        assert {row["kind"] for row in alone["rows"]} == {kind}
        assert alone["rows"][0]["rank"] == 1
        order = [row["member"] for row in everyone["rows"] if row["kind"] == kind]
        assert [row["member"] for row in alone["rows"]] == order
        query = "query($slug: String!, $kind: MemberKind) { standings(slug: $slug, kind: $kind) "
        query += "{ kind rows(first: 100) { edges { node { member } } } } }"
        by_graphql = GraphQL().data(query, slug=slug, kind=kind.upper())["standings"]
        assert by_graphql["kind"] == kind.upper()
        assert [e["node"]["member"] for e in by_graphql["rows"]["edges"]] == order
    refused = client.get(f"{path}?kind=robots")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
