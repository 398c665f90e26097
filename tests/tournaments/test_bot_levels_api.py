"""Bots of every level through the API: chosen when added, shown to all, playing to the end."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.play import ROUND_GUARD, Player, all_uids, card_locations, create
from tournaments.models import DraftTurn, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def lobby(seats: int, **options: Any) -> Player:
    client = APIClient()
    ticket = create(client, seats=seats, **options)
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    host.answer_live(False)
    return host


def test_bots_of_each_level_are_shown_and_play_a_whole_tournament(catalogue: Any) -> None:
    host = lobby(4, seed=5)
    host.post("bots", {"count": 1, "level": "champion"})
    host.post("bots", {"count": 1, "level": "steady"})
    view = host.post("bots", {"count": 1})
    levels = {seat["number"]: seat["bot_level"] for seat in view["seats"]}
    assert levels == {0: None, 1: "champion", 2: "steady", 3: "rookie"}
    host.post("start")
    for _ in range(ROUND_GUARD):
        if host.get()["status"] == "finished":
            break
        assert host.act(), host.get()
    view = host.get()
    assert view["status"] == "finished" and view["winners"]
    tournament = Tournament.objects.get(pk=view["id"])
    assert card_locations(tournament) == all_uids(tournament)
    # every match replays from its seed and stored answers, whichever level answered
    verified = host.client.get(f"/api/v1/tournaments/{host.id}/verify/").json()
    assert verified["ok"], verified


def test_an_unknown_level_is_refused_with_its_code(catalogue: Any) -> None:
    host = lobby(3)
    refusal = host.post("bots", {"count": 1, "level": "grandmaster"}, status=400)
    assert refusal["code"] == "bad_bot_level"
    assert refusal["details"]["levels"] == ["rookie", "steady", "champion"]
    assert len(host.get()["seats"]) == 1


def test_bots_past_the_cpu_budget_are_handed_to_a_new_task(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no CPU budget each task plays one bot seat and hands the rest on (tasks are eager
    here): every bot still finishes its Deck Phase, one task each, in seat order."""
    from tournaments.services import deck

    played: list[list[int]] = []
    real = deck.bot_deck_phases

    def counted(*, tournament_id: int, seat_ids: list[int]) -> None:
        played.append(list(seat_ids))
        real(tournament_id=tournament_id, seat_ids=seat_ids)

    monkeypatch.setattr(deck, "BOTS_CPU_SECONDS", -1.0)
    monkeypatch.setattr(deck, "bot_deck_phases", counted)
    host = lobby(4, seed=9)
    host.post("bots", {"count": 3})
    host.post("start")
    assert len(played) == 3 and [len(ids) for ids in played] == [3, 2, 1]
    assert played[1] == played[0][1:] and played[2] == played[0][2:]
    view = host.get()
    assert view["status"] == "deck" and view["you"]["turn"] is not None
    assert DraftTurn.objects.filter(seat__tournament_id=host.id, finished=True).count() == 3


def test_a_bot_task_queued_before_the_upgrade_still_plays_its_seat(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bot_deck_phase(tournament, seat)``, the per-seat task of earlier versions, plays it."""
    from tournaments import tasks
    from tournaments.services import deck

    host = lobby(3, seed=4)
    host.post("bots", {"count": 2})
    monkeypatch.setattr(deck, "bot_deck_phases", lambda **_: None)  # the bots wait
    host.post("start")
    monkeypatch.undo()
    bot = Tournament.objects.get(pk=host.id).seats.get(number=1)
    assert not DraftTurn.objects.get(seat=bot, round=1).finished
    tasks.bot_deck_phase.delay(host.id, bot.pk)
    assert DraftTurn.objects.get(seat=bot, round=1).finished
    assert not DraftTurn.objects.get(seat__tournament_id=host.id, seat__number=2).finished
