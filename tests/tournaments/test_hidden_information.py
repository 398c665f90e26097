"""No endpoint shows a hidden fact to the wrong caller (docs/protocol.md, what each viewer sees)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.tournaments.play import Player, open_game
from tournaments.models import DraftTurn, Tournament, Trophy

pytestmark = pytest.mark.django_db(transaction=True)


def four_seats_into_round_three() -> tuple[Player, Player, list[str]]:
    host, guest = open_game(seats=4, humans=2, seed=77)
    while host.get()["round"] < 3:
        assert host.act() or guest.act()
    host.post("draft/choose", {"option": 0})
    host.post("draft/draw")
    return host, guest, [host.token, guest.token]


def responses(client: APIClient, tournament_id: int, headers: dict[str, str]) -> list[Any]:
    """Everything a caller can read about the tournament."""
    got = [client.get(f"/api/v1/tournaments/{tournament_id}/", headers=headers).json()]
    matches = client.get(f"/api/v1/tournaments/{tournament_id}/matches/", headers=headers).json()
    got.append(matches)
    for match in matches:
        got.append(client.get(f"/api/v1/matches/{match['id']}/", headers=headers).json())
        got.append(client.get(f"/api/v1/matches/{match['id']}/events/", headers=headers).json())
    return got


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def test_spectators_see_only_public_facts(catalogue: Any) -> None:
    host, _, tokens = four_seats_into_round_three()
    seen = responses(host.client, host.id, {})
    text = json.dumps(seen)
    tournament = Tournament.objects.get(pk=host.id)
    assert all(token not in text for token in tokens)
    assert not {"seed", "setup", "order", "token_hash", "answers"} & keys_in(seen)
    assert seen[0]["you"] is None and seen[0]["code"] is None
    assert Trophy.objects.filter(tournament=tournament, winner__isnull=False).exists()
    assert all(trophy["fans"] is None for trophy in seen[0]["trophies"])
    kinds = {event["kind"] for batch in seen[3::2] for event in batch}
    assert not kinds & {"shuffle", "question", "answer", "arranged"}
    assert all(
        "key" not in e["payload"] for batch in seen[3::2] for e in batch if e["kind"] == "added"
    )


def test_a_seat_sees_its_own_display_and_trophy_fans_but_nobody_elses(catalogue: Any) -> None:
    host, guest, _ = four_seats_into_round_three()
    tournament = Tournament.objects.get(pk=host.id)
    host_display = DraftTurn.objects.get(
        seat__tournament=tournament, seat__number=0, round=3
    ).state["display"]
    assert host_display
    guest_view = responses(guest.client, guest.id, guest.headers)
    uids_seen_by_guest = {
        card["uid"]
        for card in guest_view[0]["you"]["deck"] + guest_view[0]["you"]["turn"]["display"]
    }
    assert not set(host_display) & uids_seen_by_guest
    assert "display" not in json.dumps(guest_view[0]["seats"])
    for trophy in guest_view[0]["trophies"]:
        owner = trophy["seat"]
        assert (trophy["fans"] is not None) == (owner == 1), trophy
    host_view = host.get()
    assert [c["uid"] for c in host_view["you"]["turn"]["display"]] == host_display


def test_a_seat_never_sees_the_other_sides_questions_or_the_deck_order(catalogue: Any) -> None:
    host, guest, _ = four_seats_into_round_three()
    for match in Match.objects.filter(tournament_id=host.id):
        side = "A" if match.seat_a.number == 1 else "B" if match.seat_b.number == 1 else None
        events = guest.client.get(
            f"/api/v1/matches/{match.pk}/events/", headers=guest.headers
        ).json()
        for event in events:
            assert event["kind"] != "shuffle"
            if event["kind"] in ("question", "answer", "arranged"):
                assert event["payload"]["side"] == side


def test_a_uid_gives_away_neither_its_card_nor_its_place_in_the_pile(catalogue: Any) -> None:
    (host,) = open_game(seats=2, seed=5)
    tournament = Tournament.objects.get(pk=host.id)
    pile = tournament.piles.get(level="A").cards
    keys = dict(tournament.copies.filter(uid__in=pile).values_list("uid", "card__name"))
    by_uid = [keys[uid] for uid in sorted(pile)]
    assert by_uid != sorted(by_uid)
    assert pile != sorted(pile)
