"""A forfeit of one match: the match goes to the opponent in the league's record (the trophy and
its fans, or a Final's title), standings and ratings are exactly a replay's, the member's
history shows it, standings_changed is sent, and refusals change nothing — through REST and
GraphQL alike."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import Correction, League, Result, WebhookDelivery
from leagues.services import recording
from matches.models import Match
from tests.api.snapshot import everything
from tests.graphql.client import GraphQL
from tests.graphql.test_league_management_parity import enum, mutate, same_refusal
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    handle_at,
    league_with_season,
    ok,
    org,
    post,
    refused,
    result_of,
)
from tests.leagues.receiver import receiver
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


def forfeit(client: APIClient, token: str, slug: str, **body: Any) -> Any:
    return correct(client, token, slug, **{"kind": "forfeit", "reason": "No-show", **body})


def test_a_forfeited_final_gives_the_title_to_the_opponent_as_a_replay_would(
    catalogue: Any, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    final = Match.objects.get(tournament_id=tid, round=8)
    loser_seat = final.seat_b_id if final.winner_id == final.seat_a_id else final.seat_a_id
    champion, finalist = handle_at(tid, final.winner_id or 0), handle_at(tid, loser_seat)
    assert result_of(tid, champion).champion
    with receiver() as received:
        hook = {"url": received.url, "events": ["standings_changed"]}
        ok(post(client, f"leagues/{slug}/webhooks/", hook, org(token)))
        made = ok(forfeit(client, token, slug, tournament=tid, match=final.pk, member=champion))
        delivery = WebhookDelivery.objects.get()
        assert delivery.idempotency_key == f"standings_changed:{season}:correction:{made['id']}"
        assert delivery.status == "delivered"
    assert made["match"] == final.pk and made["member"] == champion
    assert result_of(tid, finalist).champion and result_of(tid, finalist).place == 1
    assert not result_of(tid, champion).champion and result_of(tid, champion).place == 2
    incremental = snapshot()
    assert recording.league_recompute(league_id=League.objects.get(slug=slug).pk) == 1
    assert snapshot() == incremental
    for handle in (champion, finalist):
        history = client.get(f"/api/v1/leagues/{slug}/members/{handle}/").json()
        assert [(c["kind"], c["match"]) for c in history["corrections"]] == [("forfeit", final.pk)]


def test_a_forfeited_round_match_moves_its_trophy_and_fans_to_the_opponent(
    catalogue: Any,
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=4)
    matches = Match.objects.filter(tournament_id=tid, round__lt=8, seat_a__kind="bot")
    match = matches.filter(seat_b__kind="bot").exclude(winner=None).order_by("round", "park")[0]
    loser_seat = match.seat_b_id if match.winner_id == match.seat_a_id else match.seat_a_id
    winner, loser = handle_at(tid, match.winner_id or 0), handle_at(tid, loser_seat)
    fans = match.tournament.trophies.get(round=match.round, park=match.park).fans
    before = {h: result_of(tid, h).fans for h in (winner, loser)}
    ok(forfeit(client, token, slug, tournament=tid, match=match.pk, member=winner))
    assert result_of(tid, winner).fans == before[winner] - fans
    assert result_of(tid, loser).fans == before[loser] + fans
    incremental = snapshot()
    recording.league_recompute(league_id=League.objects.get(slug=slug).pk)
    assert snapshot() == incremental
    # The opponent holds it now: it may forfeit it back (the latest forfeit stands).
    refused(
        forfeit(client, token, slug, tournament=tid, match=match.pk, member=winner),
        409,
        "match_not_won",
    )
    ok(forfeit(client, token, slug, tournament=tid, match=match.pk, member=loser))
    assert result_of(tid, winner).fans == before[winner]


def test_refused_forfeits_change_nothing_in_rest_and_graphql(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    other = bot_tournament(client, token, slug, season, seats=3)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    open_one = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    final = Match.objects.get(tournament_id=tid, round=8)
    loser_seat = final.seat_b_id if final.winner_id == final.seat_a_id else final.seat_a_id
    champion, finalist = handle_at(tid, final.winner_id or 0), handle_at(tid, loser_seat)
    outsider = next(
        r.member.handle
        for r in Result.objects.filter(link__tournament_id=tid).select_related("member")
        if r.member.handle not in (champion, finalist)
    )
    elsewhere = Match.objects.filter(tournament_id=other).first()
    assert elsewhere is not None
    places = {r.member.handle: r.place for r in Result.objects.filter(link__tournament_id=other)}
    ok(
        post(
            client,
            f"leagues/{slug}/corrections/",
            {"kind": "manual_result", "reason": "x", "tournament": other, "places": places},
            org(token),
        )
    )
    before = everything(), snapshot(), Correction.objects.count()
    base = {"tournament": tid, "match": final.pk}
    cases = [
        ({**base, "member": outsider}, 409, "member_not_in_match"),
        ({**base, "member": finalist}, 409, "match_not_won"),
        ({**base, "member": "nobody"}, 404, "unknown_member"),
        ({**base, "match": elsewhere.pk, "member": champion}, 404, "unknown_match"),
        (
            {"tournament": other, "match": elsewhere.pk, "member": champion},
            409,
            "manual_result_entered",
        ),
        (
            {"tournament": open_one, "match": final.pk, "member": champion},
            409,
            "result_not_released",
        ),
        ({"tournament": tid, "member": champion}, 400, "bad_correction"),
        ({**base, "member": champion, "match": 0}, 400, "invalid"),
    ]
    for body, status, code in cases:
        refused(forfeit(client, token, slug, **body), status, code)
    assert (everything(), snapshot(), Correction.objects.count()) == before

    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    gql = GraphQL(f"Token {token}")
    wrong = {"kind": "forfeit", "reason": "x", **base, "member": finalist}
    same_refusal(
        client,
        "post",
        f"leagues/{slug}/corrections/",
        wrong,
        gql,
        "correctResult",
        slug=slug,
        **enum(wrong),
    )
    made = mutate(
        gql,
        "correctResult",
        "correction { kind member match tournament }",
        slug=slug,
        kind="FORFEIT",
        reason="Left early",
        tournament=tid,
        match=final.pk,
        member=champion,
    )
    assert made == {
        "kind": "FORFEIT",
        "member": champion,
        "match": final.pk,
        "tournament": tid,
    }
    assert result_of(tid, finalist).champion
