"""Corrections with an audit trail: a disqualification (from a tournament or a season) and a
manual result change places, points, standings and ratings exactly as a replay from scratch
does, also for tournaments recorded after them; each is appended with its reason, shows in the
member's history, sends standings_changed, and is refused (changing nothing) where it would
touch a result not yet released."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import Correction, League, Result, Season, WebhookDelivery
from leagues.rules.scoring import DEFAULT_SCORING, Outcome, corrected
from leagues.selectors.leagues import standings_from_results
from leagues.services import recording
from tests.api.snapshot import everything
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    league_with_season,
    ok,
    org,
    places_of,
    post,
    refused,
)
from tests.leagues.receiver import receiver
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ADA, BRICK, COG = "Bot Ada (rookie)", "Bot Brick (rookie)", "Bot Cog (rookie)"


def test_the_rules_close_up_places_and_score_a_manual_result() -> None:
    base = [
        Outcome(1, 1, 11, True),
        Outcome(2, 2, 7, False, True),
        Outcome(3, 3, 5),
        Outcome(4, 4, 4),
    ]
    struck = corrected(base, DEFAULT_SCORING, struck={3})
    assert [(o.key, o.place, o.points) for o in struck] == [(1, 1, 11), (2, 2, 7), (4, 3, 5)]
    manual = corrected(base, DEFAULT_SCORING, places={4: 1, 3: 2, 2: 3, 1: 3})
    assert [(o.key, o.place, o.points, o.champion) for o in manual] == [
        (4, 1, 11, True),
        (3, 2, 7, False),
        (1, 3, 5, False),
        (2, 3, 5, False),
    ]


def test_any_mix_of_corrections_equals_a_replay_from_scratch(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tids = [bot_tournament(client, token, slug, season, seats=n) for n in (3, 3, 2)]

    # Tournament 1: Ada disqualified; the places below hers close up.
    before = places_of(tids[0])
    ok(
        correct(
            client,
            token,
            slug,
            kind="disqualify",
            reason="Rigged deck",
            tournament=tids[0],
            member=ADA,
        )
    )
    after = places_of(tids[0])
    assert ADA not in after and set(after) == set(before) - {ADA}
    assert sorted(place for place, _ in after.values()) in ([1, 2], [1, 1])

    # Tournament 2: its places entered by hand, the reverse of what it produced.
    order = sorted(places_of(tids[1]).items(), key=lambda item: -item[1][0])
    manual = {handle: rank for rank, (handle, _) in enumerate(order, start=1)}
    ok(
        correct(
            client,
            token,
            slug,
            kind="manual_result",
            reason="Wrong deck",
            tournament=tids[1],
            places=manual,
        )
    )
    assert {handle: place for handle, (place, _) in places_of(tids[1]).items()} == manual

    # Brick out of the season: gone from every tournament of it, and from the standings.
    ok(
        correct(
            client, token, slug, kind="disqualify", reason="No-show", season=season, member=BRICK
        )
    )
    assert not Result.objects.filter(member__handle=BRICK).exists()
    incremental = snapshot()

    # A tournament recorded after the corrections: the season's disqualification holds for it.
    tids.append(bot_tournament(client, token, slug, season, seats=3))
    assert BRICK not in places_of(tids[-1]) and ADA in places_of(tids[-1])
    incremental = snapshot()
    league = League.objects.get(slug=slug)
    assert recording.league_recompute(league_id=league.pk) == len(tids)
    assert snapshot() == incremental
    rows = client.get(f"/api/v1/leagues/{slug}/standings/?season={season}").json()["rows"]
    assert BRICK not in {row["member"] for row in rows}
    by_rows = sorted(
        (row["member"], row["points"], row["wins"], row["finals"], row["fans"], row["played"])
        for row in rows
    )
    assert standings_from_results(Season.objects.get(pk=season)) == by_rows

    # The audit trail, and the member's history.
    trail = client.get(f"/api/v1/leagues/{slug}/corrections/").json()["results"]
    assert [(c["kind"], c["reason"]) for c in trail] == [
        ("disqualify", "Rigged deck"),
        ("manual_result", "Wrong deck"),
        ("disqualify", "No-show"),
    ]
    assert trail[1]["places"] == manual and trail[2]["tournament"] is None
    history = client.get(f"/api/v1/leagues/{slug}/members/{ADA}/").json()
    assert [c["reason"] for c in history["corrections"]] == ["Rigged deck", "Wrong deck"]
    assert tids[0] not in [h["tournament"] for h in history["tournaments"]]
    brick = client.get(f"/api/v1/leagues/{slug}/members/{BRICK}/").json()
    assert brick["tournaments"] == [] and brick["corrections"][-1]["reason"] == "No-show"


def test_a_correction_sends_standings_changed(catalogue: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=2)
    with receiver() as received:
        hook = {"url": received.url, "events": ["standings_changed"]}
        ok(post(client, f"leagues/{slug}/webhooks/", hook, org(token)))
        made = ok(
            correct(client, token, slug, kind="disqualify", reason="x", tournament=tid, member=ADA)
        )
        delivery = WebhookDelivery.objects.get()
        assert delivery.idempotency_key == f"standings_changed:{season}:correction:{made['id']}"
        assert delivery.status == "delivered"
        assert [row["member"] for row in delivery.payload["data"]["rows"]] == [BRICK]


def test_refused_corrections_change_nothing(catalogue: Any) -> None:
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    open_one = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    ok(correct(client, token, slug, kind="disqualify", reason="x", season=season, member=COG))
    before = everything(), snapshot(), Correction.objects.count()
    three = {ADA: 1, BRICK: 2}
    cases = [
        (
            {"kind": "disqualify", "reason": "x", "tournament": open_one, "member": ADA},
            409,
            "result_not_released",
        ),
        (
            {"kind": "manual_result", "reason": "x", "tournament": open_one, "places": three},
            409,
            "result_not_released",
        ),
        (
            {"kind": "disqualify", "reason": "x", "tournament": 99999, "member": ADA},
            404,
            "not_league_tournament",
        ),
        (
            {"kind": "disqualify", "reason": "x", "tournament": tid, "member": "nobody"},
            404,
            "unknown_member",
        ),
        (
            {"kind": "disqualify", "reason": "x", "tournament": tid, "member": COG},
            409,
            "member_not_in_tournament",
        ),
        (
            {"kind": "disqualify", "reason": "x", "season": season, "member": COG},
            409,
            "member_disqualified",
        ),
        (
            {"kind": "disqualify", "reason": "x", "season": 99999, "member": ADA},
            404,
            "unknown_season",
        ),
        ({"kind": "disqualify", "reason": "x", "member": ADA}, 400, "bad_correction"),
        (
            {
                "kind": "disqualify",
                "reason": "x",
                "tournament": tid,
                "season": season,
                "member": ADA,
            },
            400,
            "bad_correction",
        ),
        ({"kind": "manual_result", "reason": "x", "places": three}, 400, "bad_correction"),
        (
            {"kind": "manual_result", "reason": "x", "tournament": tid, "places": {ADA: 1}},
            400,
            "bad_manual_result",
        ),
        (
            {
                "kind": "manual_result",
                "reason": "x",
                "tournament": tid,
                "places": {ADA: 1, BRICK: 3},
            },
            400,
            "bad_manual_result",
        ),
        (
            {
                "kind": "manual_result",
                "reason": "x",
                "tournament": tid,
                "places": {ADA: 1, BRICK: 2, COG: 3},
            },
            400,
            "bad_manual_result",
        ),
        ({"kind": "forfeit", "reason": "x", "tournament": tid}, 400, "bad_correction"),
        ({"kind": "withdraw", "reason": "x", "tournament": tid}, 400, "invalid"),
        ({"kind": "disqualify", "reason": "", "tournament": tid, "member": ADA}, 400, "invalid"),
    ]
    for body, status, code in cases:
        refused(correct(client, token, slug, **body), status, code)
    refused(
        correct(client, rival, slug, kind="disqualify", reason="x", tournament=tid, member=ADA),
        403,
        "not_league_organizer",
    )
    assert (everything(), snapshot(), Correction.objects.count()) == before
