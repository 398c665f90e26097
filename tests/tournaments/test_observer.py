"""The one observer, over random event logs and every channel: each viewer sees exactly what
``matches.observer.observe`` allows it, wherever it reads.

Each example stores a random match log (any kind, either side, released up to a random event,
the match being released or finished) the way recording stores it — the match's own events and
the tournament log's rows with the audience the observer gives them — then reads it as both
seats of the match, a seat of another match and a spectator through REST's match events and
view, GraphQL's match, the stream's frames and the replay; one more test reads a log of every
kind through the live socket itself.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from cards.models import CardSnapshot
from matches.engine.events import KINDS
from matches.models import Match, MatchEvent, MatchStatus
from matches.observer import SPECTATOR, Viewer, observe, visible_filter
from matches.services import event_counts
from server.asgi import application
from tests.factories import SeatFactory, TournamentFactory
from tests.graphql.client import GraphQL
from tests.graphql.rest_shape import rest_shape
from tournaments.models import Seat, Status, TournamentEvent
from tournaments.selectors.events import event_texts_after
from tournaments.services.events import publish_many
from tournaments.services.matchplay import _event_items

pytestmark = pytest.mark.django_db

EVENT = st.tuples(st.sampled_from(KINDS), st.sampled_from(("A", "B")))
LOG = st.tuples(
    st.lists(EVENT, max_size=30),
    st.integers(min_value=0, max_value=30),  # how many are released
    st.sampled_from((MatchStatus.RECORDED, MatchStatus.FINISHED)),
    st.booleans(),  # whether the tournament is over (its replay published)
)
GQL_MATCH = """query($id: Int!) {
  match(id: $id) { eventsReleased events(first: 500) { edges { node { seq kind payload } } } }
}"""


def _payload(seq: int, kind: str, side: str) -> dict[str, Any]:
    """An event with the fields observers may see or not (``key`` of ``added`` is unseen)."""
    return {"seq": seq, "kind": kind, "side": side, "card": f"u{seq}", "key": "Castle/Knight"}


def _stored(log: tuple[Any, ...]) -> tuple[Match, list[Seat], list[dict[str, Any]], int]:
    """A tournament with three seats and a match of seats 0 and 1 holding the log's events."""
    shape, released, status, over = log
    snapshot, _ = CardSnapshot.objects.get_or_create(
        digest="observer", defaults={"entries": [], "all_sets": []}
    )
    tournament = TournamentFactory.create(
        status=Status.FINISHED if over else Status.MATCH, seat_count=3, snapshot=snapshot
    )
    seats = [SeatFactory.create(tournament=tournament, number=n) for n in range(3)]
    payloads = [_payload(seq, kind, side) for seq, (kind, side) in enumerate(shape)]
    if over:  # every match of a finished tournament is finished
        status = MatchStatus.FINISHED
    # A finished (released) match has every event out; a recorded one, a prefix of them.
    released = len(payloads) if status == MatchStatus.FINISHED else min(released, len(payloads))
    now = timezone.now()
    at = [
        now - timedelta(hours=1) if i < released else now + timedelta(hours=1)
        for i in range(len(payloads))
    ]
    match = Match.objects.create(
        tournament=tournament,
        round=1,
        park="p1",
        seat_a=seats[0],
        seat_b=seats[1],
        seed=5,
        status=status,
        winner=seats[0],
        finished_at=now,
        event_counts=event_counts(payloads),
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(match=match, seq=p["seq"], kind=p["kind"], payload=p, visible_at=when)
        for p, when in zip(payloads, at, strict=True)
    )
    publish_many(tournament, _event_items(match, list(zip(payloads, at, strict=True))))
    tournament.save()
    return match, seats, payloads, released


def _viewers(seats: list[Seat]) -> list[tuple[Viewer, dict[str, str], str | None]]:
    """Both seats of the match, a seat of no match of it, and a spectator."""
    found = [
        (Viewer(seat.pk, seat.number), {"Authorization": f"Bearer {_token(seat)}"}, side)
        for seat, side in zip(seats, ("A", "B", None), strict=True)
    ]
    return [*found, (SPECTATOR, {}, None)]


def _token(seat: Seat) -> str:
    return f"token-{seat.tournament_id}-{seat.number}"


def _frames(payloads: list[dict[str, Any]], released: int, side: str | None) -> list[Any]:
    """What the observer allows: each released event as ``observe`` shows it, or hidden."""
    frames = []
    for payload in payloads[:released]:
        shown = observe(payload, side)
        kind = "hidden" if shown is None else shown["kind"]
        frames.append({"seq": payload["seq"] + 1, "kind": kind, "payload": shown})
    return frames


def _fair(event: dict[str, Any], side: str | None) -> bool:
    """The rule in words, apart from its declaration: no deck order ever; questions, answers
    and looks only to their own side; a card taken unseen without its key."""
    if event["kind"] == "shuffle":
        return False
    if event["kind"] in ("question", "answer", "arranged") and event["side"] != side:
        return False
    return not (event["kind"] == "added" and "key" in event)


def _stream(match: Match, viewer: Viewer) -> list[Any]:
    """The match events among the stream's frames (the text the socket sends), hidden or not."""
    texts = event_texts_after(tournament_id=match.tournament_id, after=0, viewer=viewer).events
    frames = [json.loads(text) for text in texts]
    return [f["payload"]["event"] if f["kind"] == "match_event" else None for f in frames]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=LOG)
def test_every_channel_shows_each_viewer_exactly_what_the_observer_allows(
    log: tuple[Any, ...],
) -> None:
    match, seats, payloads, released = _stored(log)
    client = APIClient()
    for viewer, headers, side in _viewers(seats):
        assert viewer.side_in(match) == side
        expected = _frames(payloads, released, side)
        visible = [frame["payload"] for frame in expected if frame["payload"] is not None]
        assert all(_fair(event, side) for event in visible)
        rest = client.get(f"/api/v1/matches/{match.pk}/events/", headers=headers).json()
        assert rest == expected
        view = client.get(f"/api/v1/matches/{match.pk}/", headers=headers).json()
        assert view["events_released"] == len(visible)
        auth = headers.get("Authorization")
        gql = GraphQL(auth).data(GQL_MATCH, id=match.pk)["match"]
        assert rest_shape(gql["events"]) == expected and gql["eventsReleased"] == len(visible)
        # The stream: the rows released, each the event as observed, or hidden (None).
        assert [e for e in _stream(match, viewer) if e is not None] == visible
    _check_replay(client, match, payloads)


def _check_replay(client: APIClient, match: Match, payloads: list[dict[str, Any]]) -> None:
    """Once the tournament is over every event is public as recorded (the seed is revealed);
    before, the replay is refused."""
    answer = client.get(f"/api/v1/tournaments/{match.tournament_id}/replay/")
    if match.tournament.status != Status.FINISHED:
        assert answer.status_code == 409
        return
    replayed = answer.json()["matches"][0]["events"]
    assert replayed == [observe(p, None, revealed=True) for p in payloads] == payloads


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(log=LOG)
def test_the_sql_count_is_the_observers_count(log: tuple[Any, ...]) -> None:
    """``visible_filter`` (SQL, generated from the same declaration) counts what ``observe``
    shows, for every viewer class."""
    match, _seats, payloads, _released = _stored(log)
    for side in (None, "A", "B"):
        counted = MatchEvent.objects.filter(match=match).filter(visible_filter(side)).count()
        assert counted == sum(observe(p, side) is not None for p in payloads)


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_each_viewer_what_the_observer_allows() -> None:
    """The live stream itself (the WebSocket consumer) over a log of every kind for each side."""
    shape = [(kind, side) for kind in KINDS for side in ("A", "B")]
    log = (shape, len(shape), MatchStatus.FINISHED, False)
    match, seats, payloads, _released = await database_sync_to_async(_stored)(log)
    last = await database_sync_to_async(
        lambda: TournamentEvent.objects.filter(tournament_id=match.tournament_id).count()
    )()
    for viewer, headers, side in _viewers(seats):
        seat = next((s for s in seats if s.pk == viewer.seat_id), None)
        query = "after=0" + (f"&token={_token(seat)}" if seat is not None else "")
        socket = WebsocketCommunicator(
            application, f"/ws/tournaments/{match.tournament_id}/?{query}"
        )
        connected, _ = await socket.connect()
        assert connected and bool(headers) == (seat is not None)
        frames: list[dict[str, Any]] = []
        while not frames or frames[-1].get("seq", 0) < last:
            frames.append(await socket.receive_json_from(timeout=10))
        await socket.disconnect()
        events = [f for f in frames if f.get("type") == "event"]
        assert [f["seq"] for f in events] == list(range(1, last + 1))  # gapless
        shown = [f["payload"]["event"] for f in events if f["kind"] == "match_event"]
        expected = [e for p in payloads if (e := observe(p, side)) is not None]
        assert shown == expected and all(_fair(event, side) for event in shown)
