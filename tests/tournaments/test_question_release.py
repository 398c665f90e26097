"""A live question is asked once the match's events before it are out, and no sooner.

A real game on the real clock: the events are paced (``MATCH_EVENT_PACE_SECONDS``), three
streams (the asked seat, the other seat, a spectator) read the log as it is released, and the
asked seat answers each question as its frame arrives. Every event of the match before a question
reached each stream before that question (or its public ``match_waiting``), and no frame reached
anyone before its ``visible_at``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from matches.models import Match, MatchEvent
from matches.observer import observe
from tests.tournaments.test_live_questions import answer, juggler_game
from tests.tournaments.test_stream import connect
from tournaments.models import TournamentEvent
from tournaments.services.matchruns import match_verify

pytestmark = pytest.mark.django_db(transaction=True)

PACE = 0.1  # seconds between a match's events, on the real clock
Received = list[tuple[dict[str, Any], datetime]]


def _event_of(frame: dict[str, Any]) -> dict[str, Any]:
    return dict((frame.get("payload") or {}).get("event") or {})


async def _read(
    stream: WebsocketCommunicator,
    into: Received,
    on_question: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
) -> None:
    """Every frame with the instant it arrived, up to the match's ``end``."""
    while True:
        frame = await stream.receive_json_from(timeout=60)
        into.append((frame, datetime.now(UTC)))
        if frame["kind"] == "match_question" and on_question is not None:
            await on_question(frame)
        if frame["kind"] == "match_event" and _event_of(frame).get("kind") == "end":
            return


def _rows(match: Match) -> tuple[dict[int, datetime], list[dict[str, Any]], str]:
    """Each log row's instant, the match's events, the host's side."""
    log = TournamentEvent.objects.filter(tournament_id=match.tournament_id)
    released = dict(log.values_list("seq", "visible_at"))
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    side = "A" if Match.objects.get(pk=match.pk).seat_a.number == 0 else "B"
    return released, list(events.values_list("payload", flat=True)), side


def _before(
    received: Received, kind: str, events: list[dict[str, Any]], live: str, side: str | None
) -> int:
    """Check each ``kind`` frame came after every event before the ``live`` side's question
    that ``side`` sees; returns how many there were."""
    seen: set[int] = set()
    asked = [e["seq"] for e in events if e["kind"] == "question" and e["side"] == live]
    count = 0
    for frame, _at in received:
        if frame["kind"] == "match_event":
            seen.add(int(_event_of(frame)["seq"]))
        elif frame["kind"] == kind:
            question = asked[count]
            owed = {e["seq"] for e in events[:question] if observe(e, side) is not None}
            assert owed <= seen, f"question {count}: events {sorted(owed - seen)} came after it"
            count += 1
    return count


async def test_each_question_comes_after_every_event_before_it_and_nothing_comes_early(
    catalogue: Any, settings: Any
) -> None:
    settings.MATCH_EVENT_PACE_SECONDS = PACE
    host, guest, match = await database_sync_to_async(juggler_game)()
    streams = [
        await connect(host.id, f"token={host.token}"),
        await connect(host.id, f"token={guest.token}"),
        await connect(host.id),
    ]
    received: list[Received] = [[], [], []]

    async def reply(frame: dict[str, Any]) -> None:
        question = frame["payload"]["question"]
        body = {"question": question["seq"], "answer": question["default"]}
        response = await database_sync_to_async(answer)(host, match, body)
        assert response.status_code == 200, response.json()

    await asyncio.gather(
        _read(streams[0], received[0], reply),
        *(_read(s, r) for s, r in zip(streams[1:], received[1:], strict=True)),
    )
    for stream in streams:
        await stream.disconnect()
    released, events, live = await database_sync_to_async(_rows)(match)
    other = "B" if live == "A" else "A"
    for frames in received:
        for frame, at in frames:
            assert at >= released[frame["seq"]], f"frame {frame['seq']} came before its instant"
    questions = _before(received[0], "match_question", events, live, live)
    assert questions >= 2, "the host's Jugglers ask again and again"
    assert _before(received[1], "match_waiting", events, live, other) == questions
    assert _before(received[2], "match_waiting", events, live, None) == questions
    first = next(e["seq"] for e in events if e["kind"] == "question" and e["side"] == live)
    assert any(e["kind"] == "flag" for e in events[:first]), "the first question has a flag"
    assert [e["seq"] for e in events] == list(range(len(events))), "each event stored once"
    assert await database_sync_to_async(match_verify)(match_id=match.pk)
