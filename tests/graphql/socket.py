"""A graphql-transport-ws client over Channels' ``WebsocketCommunicator`` (the ASGI app)."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator

from server.asgi import application

PROTOCOL = "graphql-transport-ws"


async def open_socket(
    authorization: str | None = None, path: str = "/ws/graphql/"
) -> WebsocketCommunicator:
    """A socket past ``connection_init``: acknowledged, or closed by the server."""
    socket = WebsocketCommunicator(application, path, subprotocols=[PROTOCOL])
    connected, _ = await socket.connect()
    assert connected
    payload = {"Authorization": authorization} if authorization else {}
    await socket.send_json_to({"type": "connection_init", "payload": payload})
    return socket


async def subscribe(
    socket: WebsocketCommunicator, query: str, variables: dict[str, Any], sub: str = "1"
) -> None:
    ack = await socket.receive_json_from(timeout=5)
    assert ack["type"] == "connection_ack", ack
    message = {"query": query, "variables": variables}
    await socket.send_json_to({"id": sub, "type": "subscribe", "payload": message})


async def frames(
    socket: WebsocketCommunicator, until_seq: int, field: str
) -> tuple[list[dict[str, Any]], bool]:
    """The ``next`` payloads until one with ``seq >= until_seq``, a ``complete``, or 5 s of
    quiet; and whether the subscription completed."""
    got: list[dict[str, Any]] = []
    while not got or got[-1]["seq"] < until_seq:
        try:
            message = await socket.receive_json_from(timeout=5)
        except TimeoutError:
            return got, False
        if message["type"] == "complete":
            return got, True
        assert message["type"] == "next", message
        assert "errors" not in message["payload"], message
        got.append(message["payload"]["data"][field])
    return got, False
