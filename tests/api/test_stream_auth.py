"""A seat's token on the stream travels in the handshake's subprotocols, out of the URL:
``Sec-WebSocket-Protocol: challengers.v1, bearer.<token>``, answered ``challengers.v1``; the
deprecated ``?token=`` still works, for one release."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from server.asgi import application
from tests.tournaments.test_stream import drain, last_seq, play_round, two_seat_game
from tournaments.models import TournamentEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def own_seqs(tournament_id: int) -> set[int]:
    events = TournamentEvent.objects.filter(tournament_id=tournament_id, audience=0)
    return set(events.values_list("seq", flat=True))


async def open_stream(path: str, subprotocols: list[str]) -> tuple[WebsocketCommunicator, Any]:
    communicator = WebsocketCommunicator(application, path, subprotocols=subprotocols)
    connected, subprotocol = await communicator.connect(timeout=5)
    assert connected
    return communicator, subprotocol


async def test_a_seat_reads_its_own_events_with_the_token_in_the_subprotocol(
    catalogue: Any,
) -> None:
    host, guest = await database_sync_to_async(two_seat_game)()
    await database_sync_to_async(play_round)(host, guest)
    path = f"/ws/tournaments/{host.id}/"
    stream, subprotocol = await open_stream(path, ["challengers.v1", f"bearer.{host.token}"])
    assert subprotocol == "challengers.v1"  # never the bearer one: a credential is not echoed
    frames = await drain(stream, await database_sync_to_async(last_seq)(host.id))
    await stream.disconnect()
    own = await database_sync_to_async(own_seqs)(host.id)
    assert own and all(frame["kind"] != "hidden" for frame in frames if frame["seq"] in own)


async def test_an_unknown_token_in_the_subprotocol_is_refused_as_in_the_query(
    catalogue: Any,
) -> None:
    host, _ = await database_sync_to_async(two_seat_game)()
    path = f"/ws/tournaments/{host.id}/"
    stream, subprotocol = await open_stream(path, ["challengers.v1", "bearer.nonsense"])
    assert subprotocol == "challengers.v1"
    frame = await stream.receive_json_from(timeout=5)
    assert frame["code"] == "bad_token"
    closed = await stream.receive_output(timeout=5)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4401)
    assert closed["reason"].startswith("bad_token: ")
    await stream.disconnect()


async def test_a_spectator_may_ask_for_the_subprotocol_without_a_token(catalogue: Any) -> None:
    host, _ = await database_sync_to_async(two_seat_game)()
    stream, subprotocol = await open_stream(f"/ws/tournaments/{host.id}/", ["challengers.v1"])
    assert subprotocol == "challengers.v1"
    assert (await stream.receive_json_from(timeout=5))["type"] == "event"
    await stream.disconnect()
