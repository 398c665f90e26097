"""The promises of a fair core, through the public API: unpredictable seeds that can be checked
afterwards, a ``stale`` only for the seat whose situation changed, gapless streams, and a match
that cannot be played failing out loud and resuming once fixed."""

from __future__ import annotations

import hashlib
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from matches.engine.model import RULES_VERSION
from matches.models import Match, MatchEvent, MatchStatus
from tests.tournaments.play import ROUND_GUARD, Player, create, open_game, play_to_the_end
from tournaments.models import Pile, Tournament, TournamentEvent
from tournaments.services import matchplay

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_same_host_seed_twice_deals_different_cards(catalogue: Any, settings: Any) -> None:
    settings.TRUST_HOST_SEED = False
    client = APIClient()
    games = [open_game(seats=2, seed=424242)[0] for _ in range(2)]
    piles = [
        list(Pile.objects.filter(tournament_id=g.id).values_list("cards", flat=True)) for g in games
    ]
    displays = []
    for game in games:
        displays.append([c["card"] for c in game.post("draft/draw")["you"]["turn"]["display"]])
    assert piles[0] != piles[1] and displays[0] != displays[1]
    views = [client.get(f"/api/v1/tournaments/{g.id}/").json() for g in games]
    assert views[0]["fairness"]["commitment"] != views[1]["fairness"]["commitment"]
    assert views[0]["fairness"]["revealed_seed"] is None


def test_a_finished_tournament_verifies_from_its_revealed_seed(
    catalogue: Any, settings: Any
) -> None:
    settings.TRUST_HOST_SEED = False
    client = APIClient()
    ticket = create(client, seats=2)
    tournament_id = ticket["id"]
    committed = client.get(f"/api/v1/tournaments/{tournament_id}/").json()["fairness"]
    refused = client.get(f"/api/v1/tournaments/{tournament_id}/verify/")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_finished")

    host = Player(client, tournament_id, ticket["seat"]["token"])
    host.answer_live(False)
    host.post("bots", {"count": 1})
    host.post("start")
    for _ in range(ROUND_GUARD):
        if not host.act() and host.get()["status"] == "finished":
            break
    final = client.get(f"/api/v1/tournaments/{tournament_id}/").json()
    assert final["status"] == "finished", final
    revealed = final["fairness"]
    assert revealed["commitment"] == committed["commitment"]
    opened = f"{revealed['revealed_seed']}:{revealed['revealed_nonce']}".encode()
    assert hashlib.sha256(opened).hexdigest() == committed["commitment"]
    report = client.get(f"/api/v1/tournaments/{tournament_id}/verify/").json()
    assert report["ok"] and all(report["checks"].values())
    assert len(report["matches"]) == Match.objects.filter(tournament_id=tournament_id).count()
    assert {match["rules_version"] for match in report["matches"]} == {RULES_VERSION}

    event = MatchEvent.objects.filter(match__tournament_id=tournament_id, kind="attack").first()
    assert event is not None
    event.payload = {**event.payload, "total": event.payload["total"] + 1}
    event.save()
    tampered = client.get(f"/api/v1/tournaments/{tournament_id}/verify/").json()
    assert not tampered["ok"] and not tampered["checks"]["matches"]


def test_acting_on_the_view_just_read_is_never_stale_while_others_play(catalogue: Any) -> None:
    """Two humans and two bots to a champion; each acts with the version of the view it read,
    after the other human acted in between."""
    players = open_game(seats=4, humans=2, seed=21)
    for _ in range(ROUND_GUARD * 2):
        if players[0].get()["status"] == "finished":
            break
        views = [p.get() for p in players]
        acted = [_act_on(player, view) for player, view in zip(players, views, strict=True)]
        assert any(acted), "nobody could act"
    assert players[0].get()["status"] == "finished"


def _act_on(player: Player, view: dict[str, Any]) -> bool:
    """The first action offered by ``view``, sent with its ``you.version``; never ``stale``."""
    you = view["you"]
    if not you["actions"]:
        return False
    body: dict[str, Any] = {"version": you["version"]}
    action = you["actions"][0]
    if action == "resolve":
        pending = you["turn"]["pending"]
        keep = pending["kind"] == "draw_keep"
        path, body["cards"] = "draft/resolve", [pending["offered"][0]["uid"]] if keep else []
    elif action == "choose":
        path, body["option"] = "draft/choose", 0
    elif action == "pick":
        path, body["card"] = "draft/pick", you["turn"]["display"][0]["uid"]
    elif action in ("draw", "finish"):
        path = {"draw": "draft/draw", "finish": "deck/finish"}[action]
    else:
        path = "deck/finish"
    response = player.client.post(
        f"/api/v1/tournaments/{player.id}/{path}/", body, format="json", headers=player.headers
    )
    assert response.status_code == 200, response.json()
    return True


def test_match_events_are_gapless_from_the_first_for_every_viewer(catalogue: Any) -> None:
    host = play_to_the_end(seats=2, seed=8, live=False)
    match = Match.objects.filter(tournament_id=host.id).first()
    assert match is not None
    stored = MatchEvent.objects.filter(match=match).count()
    for headers in ({}, host.headers):
        frames = host.client.get(f"/api/v1/matches/{match.pk}/events/?after=0", headers=headers)
        numbers = [frame["seq"] for frame in frames.json()]
        assert numbers == list(range(1, stored + 1))
        assert frames.json()[0]["kind"] == "start"
        later = host.client.get(f"/api/v1/matches/{match.pk}/events/?after=5", headers=headers)
        assert [frame["seq"] for frame in later.json()] == list(range(6, stored + 1))
    spectator = host.client.get(f"/api/v1/matches/{match.pk}/events/").json()
    shown = host.client.get(f"/api/v1/matches/{match.pk}/").json()
    assert shown["events_released"] == sum(frame["kind"] != "hidden" for frame in spectator)
    assert any(frame["kind"] == "hidden" and frame["payload"] is None for frame in spectator)


def test_a_match_that_cannot_be_played_fails_out_loud_and_resumes_once_fixed(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("Reporter: effect parameter 'n' must be a whole number")

    working = matchplay.run_engine
    monkeypatch.setattr(matchplay, "run_engine", broken)
    (host,) = open_game(seats=2, seed=13)
    while host.act():
        pass
    match = Match.objects.get(tournament_id=host.id, round=1)
    assert match.status == MatchStatus.FAILED and "Reporter" in match.error
    failed = TournamentEvent.objects.filter(tournament_id=host.id, kind="match_failed").get()
    assert failed.audience is None and failed.payload["match"] == match.pk
    assert host.client.get(f"/api/v1/matches/{match.pk}/").json()["status"] == "failed"
    assert host.get()["status"] == "match"
    health = host.client.get("/api/v1/health/")
    assert health.status_code == 503 and health.json()["tasks"]["failed"] == 1

    monkeypatch.setattr(matchplay, "run_engine", working)  # the card data is fixed
    out = StringIO()
    call_command("retry_failed_matches", stdout=out)
    assert f"[{match.pk}]" in out.getvalue()
    for _ in range(ROUND_GUARD):
        if host.get()["status"] == "finished":
            break
        assert host.act()
    assert Tournament.objects.get(pk=host.id).status == "finished"
    assert host.client.get("/api/v1/health/").json()["tasks"] == {
        "backend": "matches",
        "ok": True,
        "error": None,
        "failed": 0,
    }


def test_city_is_in_play_in_a_rainbow_game_through_its_starter_cards(catalogue: Any) -> None:
    (host,) = open_game(seats=2, seed=5, basic_set="Rainbow", beach_cup=True)
    while host.act():
        pass
    match = Match.objects.filter(tournament_id=host.id).first()
    assert match is not None and "City" in match.setup["sets_in_play"]
    assert "Rainbow" in match.setup["sets_in_play"]
