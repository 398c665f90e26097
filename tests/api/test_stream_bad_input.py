"""Every bad WebSocket input gets an error frame with a code and a coded close (or the stream goes
on): never a failed handshake (HTTP 500), a 1011 close, or silence."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from server.asgi import application
from tests.api.snapshot import everything
from tests.tournaments.play import Player, create
from tournaments.models import Tournament
from tournaments.services.lobby import seat_join

pytestmark = pytest.mark.django_db(transaction=True)

HUGE = "1" + "0" * 40


def lobby() -> Player:
    """A lobby with open seats (the host alone)."""
    client = APIClient()
    ticket = create(client, seats=3)
    return Player(client, ticket["id"], ticket["seat"]["token"])


async def refused(path: str, close: int, code: str) -> None:
    """The socket opens, sends ``{"type": "error", "code"}`` and closes with ``close``."""
    before = await database_sync_to_async(everything)()
    communicator = WebsocketCommunicator(application, path)
    connected, _ = await communicator.connect(timeout=5)
    assert connected, f"{path}: the handshake failed"
    frame = await communicator.receive_json_from(timeout=5)
    assert (frame["type"], frame["code"]) == ("error", code) and frame["message"], frame
    closing = await communicator.receive_output(timeout=5)
    assert (closing["type"], closing["code"]) == ("websocket.close", close), closing
    assert closing["reason"] == f"{code}: {frame['message']}"[:123], closing  # ASCII messages
    await communicator.disconnect()  # the client answers the close: the consumer ends
    assert await database_sync_to_async(everything)() == before


@pytest.mark.parametrize(
    "path",
    [
        "/ws/tournaments/abc/",
        "/ws/tournaments/{id}",
        "/ws/tournaments/",
        "/ws/tournaments/{id}/extra/",
        "/ws/nothing/",
        "/ws/",
        "/elsewhere",
        "/ws/tournaments/-1/",
        f"/ws/tournaments/{HUGE}/",
        f"/ws/tournaments/{2**63}/",
    ],
)
async def test_an_unknown_stream_path_closes_with_4404(catalogue: Any, path: str) -> None:
    host = await database_sync_to_async(lobby)()
    await refused(path.format(id=host.id), 4404, "not_found")


async def test_a_tournament_that_does_not_exist_closes_with_4404(db: None) -> None:
    await refused("/ws/tournaments/987654/", 4404, "not_found")


@pytest.mark.parametrize(
    "after", ["²", "٣", "-1", "1.5", "abc", "%20", HUGE, str(2**31), "1" * 5000, "{last}"]
)
async def test_a_bad_after_closes_with_4400(catalogue: Any, after: str) -> None:
    host = await database_sync_to_async(lobby)()
    last = await database_sync_to_async(lambda: Tournament.objects.get(pk=host.id).event_seq + 1)()
    await refused(f"/ws/tournaments/{host.id}/?after={after.format(last=last)}", 4400, "invalid")


@pytest.mark.parametrize("token", ["nonsense", "%FF%FE", "%00"])
async def test_a_bad_token_closes_with_4401(catalogue: Any, token: str) -> None:
    host = await database_sync_to_async(lobby)()
    await refused(f"/ws/tournaments/{host.id}/?token={token}", 4401, "bad_token")


async def test_a_query_string_that_is_not_utf8_is_a_bad_token(catalogue: Any) -> None:
    host = await database_sync_to_async(lobby)()
    before = await database_sync_to_async(everything)()
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{host.id}/")
    communicator.scope["query_string"] = b"token=\xff\xfe&after=0"
    assert (await communicator.connect(timeout=5))[0]
    assert (await communicator.receive_json_from(timeout=5))["code"] == "bad_token"
    assert (await communicator.receive_output(timeout=5))["code"] == 4401
    assert await database_sync_to_async(everything)() == before


async def test_the_last_event_as_after_is_accepted(catalogue: Any) -> None:
    host = await database_sync_to_async(lobby)()
    last = await database_sync_to_async(lambda: Tournament.objects.get(pk=host.id).event_seq)()
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{host.id}/?after={last}")
    assert (await communicator.connect(timeout=5))[0]
    assert await communicator.receive_nothing(timeout=0.3)
    await communicator.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        {"text": "not json at all"},
        {"text": '{"type": "subscribe"}'},
        {"text": "[" * 5000},
        {"text": ""},
        {"bytes": b"\x00\xff binary"},
    ],
    ids=["text", "json", "deep-json", "empty", "binary"],
)
async def test_a_client_frame_is_answered_read_only_and_the_stream_goes_on(
    catalogue: Any, frame: dict[str, Any]
) -> None:
    host = await database_sync_to_async(lobby)()
    code = await database_sync_to_async(lambda: Tournament.objects.get(pk=host.id).code)()
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{host.id}/?after=0")
    assert (await communicator.connect(timeout=5))[0]
    while not await communicator.receive_nothing(timeout=0.3):
        await communicator.receive_json_from()  # the events so far
    before = await database_sync_to_async(everything)()
    await communicator.send_input({"type": "websocket.receive", **frame})
    reply = await communicator.receive_json_from(timeout=5)
    assert (reply["type"], reply["code"]) == ("error", "read_only") and reply["message"]
    assert await database_sync_to_async(everything)() == before
    # Still open, still streaming: the next event arrives.
    await database_sync_to_async(seat_join)(code=code, name="Late")
    event = await communicator.receive_json_from(timeout=5)
    assert (event["type"], event["kind"]) == ("event", "seat_joined")
    await communicator.disconnect()
