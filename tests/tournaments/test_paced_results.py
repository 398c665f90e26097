"""Pacing is the game's clock: a match's result reaches nobody before its last event has.

A played match is recorded (stored, hidden) and released when its last event is out; only then do
its trophy, fans and decks change and, after the round's last match, the round.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from infra.taskqueue import clear_runner
from matches.models import Match, MatchEvent, MatchStatus
from tests.tournaments.play import Player, open_game
from tests.tournaments.test_scoring import two_humans
from tests.tournaments.test_stream import connect
from tournaments.models import Seat
from tournaments.services.clock import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")


@pytest.fixture
def _quiet_runner_afterwards() -> Iterator[None]:
    yield
    clear_runner()


def test_a_recorded_match_changes_nothing_until_its_last_event_is_out(
    catalogue: Any, settings: Any
) -> None:
    settings.MATCH_EVENT_PACE_SECONDS = 30
    host, guest = two_humans(seed=6)
    while host.get()["you"]["actions"] or guest.get()["you"]["actions"]:
        assert host.act() or guest.act()
    match = Match.objects.get(tournament_id=host.id, round=1)
    assert match.status == MatchStatus.RECORDED and match.winner is not None
    view = host.get()
    assert (view["round"], view["status"], view["trophies"]) == (1, "match", [])
    assert all(s["trophies"] == 0 and s["fans"] == 0 for s in view["standings"])
    played = {match.seat_a_id: "A", match.seat_b_id: "B"}
    for seat in Seat.objects.filter(pk__in=played):
        assert seat.deck == [uid for uid, _ in match.setup["decks"][played[seat.pk]]]
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert (shown["status"], shown["winner"], shown["reason"]) == ("playing", None, None)
    events = host.client.get(f"/api/v1/matches/{match.pk}/events/", headers=host.headers).json()
    assert all(event["kind"] != "end" for event in events)
    assert sweep_deadlines() == 0, "nothing is due yet"

    past = timezone.now() - timedelta(seconds=60)
    MatchEvent.objects.filter(match=match).update(visible_at=past)
    Match.objects.filter(pk=match.pk).update(result_visible_at=past)
    assert sweep_deadlines() == 1
    view = host.get()
    assert view["round"] == 2 and view["status"] == "deck"
    assert [t["seat"] for t in view["trophies"]] == [match.winner.number]
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert shown["winner"] == match.winner.number and shown["status"] == "finished"
    match.refresh_from_db()
    assert match.outcome is not None
    for seat in Seat.objects.filter(pk__in=played):
        assert seat.deck == match.outcome["decks_after"][played[seat.pk]]


def _poll(player: Player, stop: float) -> list[tuple[float, dict[str, Any], list[Any]]]:
    """What a spectator's REST client sees every 50 ms, with the instant each answer arrived."""
    seen = []
    while time.monotonic() < stop:
        view = player.client.get(f"/api/v1/tournaments/{player.id}/").json()
        matches = player.client.get(f"/api/v1/tournaments/{player.id}/matches/").json()
        seen.append((time.monotonic(), view, matches))
        if view["round"] >= 3 or view["status"] == "finished":
            break
        time.sleep(0.05)
    return seen


def _drive(player: Player, stop: float) -> None:
    """The human seat drafts whenever it may, until round 3 opens."""
    while time.monotonic() < stop:
        view = player.get()
        if view["round"] >= 3 or view["status"] == "finished":
            return
        if not player.act():
            time.sleep(0.05)


def _in_thread(work: Callable[[Player, float], T], player: Player, stop: float) -> T:
    try:
        return work(player, stop)
    finally:
        connection.close()


@pytest.mark.usefixtures("_quiet_runner_afterwards")
async def test_a_polling_spectator_never_sees_a_result_before_the_stream_shows_its_end(
    catalogue: Any, settings: Any
) -> None:
    settings.TASK_RUNNER = "thread"  # the embedded clock releases matches on time
    settings.MATCH_EVENT_PACE_SECONDS = 0.08
    (host,) = await database_sync_to_async(open_game)(seats=2, seed=5)
    stream = await connect(host.id)
    stop = time.monotonic() + 90
    # Threads of their own: database_sync_to_async would run the two one after the other.
    poller = asyncio.create_task(asyncio.to_thread(_in_thread, _poll, host, stop))
    driver = asyncio.create_task(asyncio.to_thread(_in_thread, _drive, host, stop))
    ends: dict[int, float] = {}  # match id -> when the stream delivered its ``end`` event
    while not poller.done() and time.monotonic() < stop:
        if await stream.receive_nothing(timeout=0.2):  # a timeout on receive kills the app
            continue
        frame = await stream.receive_json_from()
        event = (frame.get("payload") or {}).get("event") or {}
        if frame["kind"] == "match_event" and event.get("kind") == "end":
            ends[frame["payload"]["match"]] = time.monotonic()
    seen = await poller
    await driver
    await stream.disconnect()

    assert seen[-1][1]["round"] >= 3, "two whole rounds were watched"
    rounds = await database_sync_to_async(
        lambda: dict(Match.objects.filter(tournament_id=host.id).values_list("pk", "round"))
    )()
    assert set(ends) == set(rounds), "the stream showed every match's end"
    for at, view, matches in seen:
        shown_over = {m["id"] for m in matches if m["winner"] is not None}
        assert all(ends.get(m, float("inf")) <= at for m in shown_over), "a winner came early"
        for trophy in view["trophies"]:
            (match_id,) = [m for m, r in rounds.items() if r == trophy["round"]]
            assert ends[match_id] <= at, "a trophy moved before its match's end was shown"
        for match_id, round_number in rounds.items():
            if view["round"] > round_number:
                assert ends[match_id] <= at, "the round changed before its match ended"
