"""Who may open a socket (``infra.wsorigin``), with production's ALLOWED_HOSTS: a program (no
``Origin``) is let in, a page of this site or of ``WEBSOCKET_ALLOWED_ORIGINS`` too, a foreign page
gets the coded refusal ``forbidden_origin`` and close code 4403 on every socket route."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from server.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

FOREIGN = "https://evil.example"
GRAPHQL = "graphql-transport-ws"


@pytest.fixture(autouse=True)
def production_hosts() -> Iterator[None]:
    """The compose configuration: named hosts, no ``*``."""
    hosts = ["game.example", "localhost", "127.0.0.1"]
    with override_settings(ALLOWED_HOSTS=hosts, WEBSOCKET_ALLOWED_ORIGINS=["https://app.example"]):
        yield


def socket(path: str, origin: str | None, subprotocols: list[str] | None = None) -> Any:
    headers = [(b"origin", origin.encode())] if origin else []
    return WebsocketCommunicator(application, path, headers, subprotocols=subprotocols)


async def first_frame(communicator: WebsocketCommunicator) -> dict[str, object]:
    connected, _ = await communicator.connect(timeout=5)
    assert connected, "the handshake failed"
    frame: dict[str, object] = await communicator.receive_json_from(timeout=5)
    return frame


@pytest.mark.parametrize("origin", [None, "https://game.example", "https://app.example"])
async def test_a_program_and_the_sites_own_pages_reach_the_stream(origin: str | None) -> None:
    communicator = socket("/ws/tournaments/999999/", origin)
    frame = await first_frame(communicator)
    assert frame["code"] == "not_found"  # the stream itself answered: the origin passed
    await communicator.disconnect()


@pytest.mark.parametrize(
    ("path", "subprotocols"),
    [
        ("/ws/tournaments/1/", None),
        ("/ws/tournaments/1/", ["challengers.v1", "bearer.abc"]),
        ("/ws/graphql/", [GRAPHQL]),
        ("/graphql/", [GRAPHQL]),
        ("/ws/nothing/", None),
    ],
)
async def test_a_foreign_page_is_refused_coded_on_every_route(
    path: str, subprotocols: list[str] | None
) -> None:
    communicator = socket(path, FOREIGN, subprotocols)
    connected, subprotocol = await communicator.connect(timeout=5)
    assert connected
    # A browser fails a handshake that answers none of the subprotocols it offered.
    assert subprotocol == (subprotocols[0] if subprotocols else None)
    frame = await communicator.receive_json_from(timeout=5)
    assert (frame["type"], frame["code"]) == ("error", "forbidden_origin") and frame["message"]
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403, "reason": "forbidden_origin"}
    await communicator.disconnect()


async def test_a_foreign_page_on_another_port_of_an_allowed_origin_is_refused() -> None:
    communicator = socket("/ws/tournaments/1/", "https://app.example:8443")
    assert (await first_frame(communicator))["code"] == "forbidden_origin"
    await communicator.disconnect()


async def test_the_refusal_is_written_in_the_clients_language() -> None:
    communicator = socket("/ws/tournaments/1/?lang=ru", FOREIGN)
    frame = await first_frame(communicator)
    assert frame["code"] == "forbidden_origin"
    assert frame["message"] != "This page's origin may not open a socket on this server."
    await communicator.disconnect()
