"""Subscriptions over the Channels WebSocket (graphql-transport-ws): a tournament played
through GraphQL mutations while a seat's subscription gets every event in order and gapless, a
second one resumes with ``after``, each viewer gets what the REST stream gives it, and a match's
events end with the match."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from matches.models import Match
from matches.observer import Viewer
from tests.graphql.client import GraphQL, Seat, create, nodes
from tests.graphql.rest_shape import enum_value
from tests.graphql.socket import frames, open_socket, subscribe
from tournaments.models import TournamentEvent
from tournaments.selectors.events import events_after

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENT = """subscription($id: Int!, $after: Int!) {
  tournamentEvents(tournamentId: $id, after: $after) { seq kind payload }
}"""
MATCH = """subscription($id: Int!, $after: Int!) {
  matchEvents(matchId: $id, after: $after) { seq kind payload }
}"""


def opened() -> Seat:
    """A 3-seat game (the host and two bots) opened through GraphQL, not yet started."""
    ticket = create(GraphQL(), seats=3, seed="21")
    seat = Seat(ticket["id"], ticket["token"])
    seat.act("seatSettings", answersLive=False)
    seat.act("addBots", count=2)
    return seat


def logged(tournament_id: int, audience: int | None) -> list[dict[str, Any]]:
    """What the REST stream sends ``audience`` (its frames, without their ``type``)."""
    sent: list[dict[str, Any]] = []
    while True:
        after = sent[-1]["seq"] if sent else 0
        part = events_after(
            tournament_id=tournament_id, after=after, viewer=Viewer(number=audience)
        )
        if not part.events:
            return sent
        sent += [{"seq": e.seq, "kind": e.kind, "payload": e.payload} for e in part.events]


def valued(got: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """GraphQL's frames with their ``kind`` as the stream writes it (``MATCH_EVENT`` →
    ``match_event``: ``TournamentEventKind``'s member to its value)."""
    return [{**frame, "kind": enum_value(frame["kind"])} for frame in got]


def last_seq(tournament_id: int) -> int:
    seqs = TournamentEvent.objects.filter(tournament_id=tournament_id).values_list("seq", flat=True)
    return max(seqs, default=0)


async def test_a_tournament_played_by_mutations_streams_every_event_in_order(
    catalogue: Any,
) -> None:
    seat = await database_sync_to_async(opened)()
    token = seat.gql.authorization
    live = await open_socket(token)
    await subscribe(live, TOURNAMENT, {"id": seat.id, "after": 0})
    spectator = await open_socket(path="/graphql/")  # the embedded server's other path
    await subscribe(spectator, TOURNAMENT, {"id": seat.id, "after": 0})
    await database_sync_to_async(seat.act)("startTournament")
    view = await database_sync_to_async(seat.play_to_the_end)()
    assert view["winners"]
    final = await database_sync_to_async(last_seq)(seat.id)
    got = valued((await frames(live, final, "tournamentEvents"))[0])
    watched = valued((await frames(spectator, final, "tournamentEvents"))[0])
    await live.disconnect()
    await spectator.disconnect()
    assert [frame["seq"] for frame in got] == list(range(1, final + 1))
    assert got == await database_sync_to_async(logged)(seat.id, 0)
    assert watched == await database_sync_to_async(logged)(seat.id, None)
    assert any(frame["kind"] == "hidden" for frame in watched)
    assert {frame["kind"] for frame in got} >= {"match_event", "seed_revealed"}

    middle = final // 2
    resumed = await open_socket(token)
    await subscribe(resumed, TOURNAMENT, {"id": seat.id, "after": middle})
    rest = valued((await frames(resumed, final, "tournamentEvents"))[0])
    await resumed.disconnect()
    assert rest == got[middle:]


async def test_a_match_subscription_sends_its_events_and_completes(catalogue: Any) -> None:
    seat = await database_sync_to_async(opened)()
    await database_sync_to_async(seat.act)("startTournament")
    await database_sync_to_async(seat.play_to_the_end)()
    match = await database_sync_to_async(
        lambda: Match.objects.filter(tournament_id=seat.id, seat_a__number=0).first()
    )()
    assert match is not None
    query = (
        "query($id: Int!) { match(id: $id) { events(first: 500) "
        "{ edges { node { seq kind payload } } } } }"
    )
    for token in (seat.gql.authorization, None):
        socket = await open_socket(token)
        await subscribe(socket, MATCH, {"id": match.pk, "after": 2})
        got, completed = await frames(socket, 10**9, "matchEvents")
        await socket.disconnect()
        read = await database_sync_to_async(GraphQL(token).data)(query, id=match.pk)
        assert completed
        assert got == nodes(read["match"]["events"])[2:]
        assert [frame["seq"] for frame in got] == list(range(3, len(got) + 3))


async def test_a_bad_token_is_refused_at_connection_init(db: None) -> None:
    socket = await open_socket("Bearer nobody")
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403, "reason": "Forbidden"}


async def test_a_bad_after_is_refused_with_a_code(catalogue: Any) -> None:
    seat = await database_sync_to_async(opened)()
    socket = await open_socket()
    await subscribe(socket, TOURNAMENT, {"id": seat.id, "after": 10**6})
    message = await socket.receive_json_from(timeout=5)
    await socket.disconnect()
    assert message["type"] in ("error", "next")
    errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
    assert [error["extensions"]["code"] for error in errors] == ["invalid"]
