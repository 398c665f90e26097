"""Retention: an old finished tournament's log and its matches' events are packed into archive
rows, and everything a client reads (the stream's log, match replays, ``verify/``, results)
stays the same; running and recent tournaments are left alone."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from apikit.shapes import to_json
from matches.models import Match, MatchEvent, MatchEventArchive
from matches.observer import SPECTATOR, Viewer
from server.asgi import application
from tests.ops.helpers import finished_bot_tournaments
from tournaments.models import Tournament, TournamentEvent, TournamentEventArchive
from tournaments.retention import archive_events
from tournaments.selectors.events import events_after

pytestmark = pytest.mark.django_db(transaction=True)


def reads(tid: int) -> dict[str, Any]:
    """What clients read of a finished tournament: its log (spectator and seat 1), each match's
    replay, the verification and the tournament view."""
    client = APIClient()
    matches = list(
        Match.objects.filter(tournament_id=tid).order_by("pk").values_list("pk", flat=True)
    )
    verified = client.get(f"/api/v1/tournaments/{tid}/verify/").json()
    return {
        "log": [
            to_json(events_after(tournament_id=tid, after=0, viewer=Viewer(number=a)).events)
            for a in (None, 1)
        ],
        "replays": [client.get(f"/api/v1/matches/{m}/events/").json() for m in matches],
        "verify": verified,
        "view": client.get(f"/api/v1/tournaments/{tid}/").json(),
    }


def age(tid: int, days: int) -> None:
    since = timezone.now() - timedelta(days=days)
    Tournament.objects.filter(pk=tid).update(updated_at=since)


def test_archived_logs_read_back_the_same_and_recent_ones_are_kept(catalogue: Any) -> None:
    old, recent = finished_bot_tournaments(2)
    age(old, 40)
    before = {tid: reads(tid) for tid in (old, recent)}
    assert before[old]["verify"]["ok"]
    logged = TournamentEvent.objects.filter(tournament_id=old).count()
    match_rows = MatchEvent.objects.filter(match__tournament_id=old).count()

    call_command("archive_events", "--older-than", "30")

    assert not TournamentEvent.objects.filter(tournament_id=old).exists()
    assert not MatchEvent.objects.filter(match__tournament_id=old).exists()
    assert TournamentEventArchive.objects.get(pk=old).count == logged
    archived = MatchEventArchive.objects.filter(match__tournament_id=old)
    assert sum(a.count for a in archived) == match_rows
    assert TournamentEvent.objects.filter(tournament_id=recent).exists()
    assert not TournamentEventArchive.objects.filter(pk=recent).exists()

    after = {tid: reads(tid) for tid in (old, recent)}
    assert after == before
    later = to_json(events_after(tournament_id=old, after=5, viewer=SPECTATOR).events)
    assert later[: len(before[old]["log"][0]) - 5] == before[old]["log"][0][5:]

    call_command("archive_events", "--older-than", "30")  # again: nothing more to do
    assert TournamentEventArchive.objects.count() == 1


async def test_a_stream_of_an_archived_tournament_sends_its_whole_log(catalogue: Any) -> None:
    (tid,) = await database_sync_to_async(finished_bot_tournaments)(1)
    logged = await database_sync_to_async(TournamentEvent.objects.filter(tournament_id=tid).count)()
    await database_sync_to_async(call_command)("archive_events", "--older-than", "0")
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tid}/?after=3")
    connected, _ = await socket.connect()
    assert connected
    frames = [await socket.receive_json_from(timeout=10) for _ in range(logged - 3)]
    assert [frame["seq"] for frame in frames] == list(range(4, logged + 1))
    assert frames[-1]["kind"] == "tournament_finished"
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


def test_the_periodic_task_archives_after_the_configured_days(
    catalogue: Any, settings: Any
) -> None:
    (tid,) = finished_bot_tournaments(1)
    settings.EVENT_ARCHIVE_DAYS = None
    assert archive_events.apply(kwargs={"source": "clock"}).get() == 0
    settings.EVENT_ARCHIVE_DAYS = 0
    assert archive_events.apply(kwargs={"source": "clock"}).get() == 1
    assert TournamentEventArchive.objects.filter(pk=tid).exists()


def test_a_negative_age_is_refused(db: None) -> None:
    with pytest.raises(CommandError, match="0 days or more"):
        call_command("archive_events", "--older-than", "-1")
