"""Which pages may open a socket.

Every WebSocket route goes through ``OriginGuard``: the tournament stream and the GraphQL socket.

A browser sends the ``Origin`` header to say which page opens the socket. A program sends none:
Python's ``websockets``, ``examples/play.py``, a server-side client. No page can open a socket
without one. So:

- **No ``Origin``**: not a browser, so allowed. A token still decides who it is.
- An ``Origin`` whose host is one of ``ALLOWED_HOSTS``: allowed. So is one of
  ``WEBSOCKET_ALLOWED_ORIGINS``, for a web client served from another site.
- **Any other ``Origin``**: the handshake is accepted. Then comes the error frame ``{"type":
  "error", "code": "forbidden_origin", "message"}``, and close code ``4403``. That is coded like
  every other socket refusal. Channels' ``AllowedHostsOriginValidator`` answered a bare HTTP 403
  instead, which a page cannot even read. It refused programs without an ``Origin`` too.

The matching is Channels' ``OriginValidator``'s. It takes a host, a ``.example.com`` pattern, or
a full ``https://host:port`` origin.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from urllib.parse import ParseResult, urlparse

from asgiref.typing import ASGI3Application, ASGIReceiveCallable, WebSocketScope
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from infra.i18n import scope_language

CLOSE_FORBIDDEN = 4403
STREAM_PROTOCOL = "challengers.v1"  # the tournament stream's (tournaments.consumers)
# The subprotocols the server speaks, in the order it prefers them when a client offers several.
SPOKEN = (STREAM_PROTOCOL, "graphql-transport-ws")

# A sender of any frame: asgiref's ``ASGISendCallable`` wants ``text`` and ``bytes`` in every
# ``websocket.send`` frame, which Channels' test client refuses; this one takes either, and an
# application wanting asgiref's is given it all the same (every asgiref frame is a mapping).
FrameSend = Callable[[Mapping[str, object]], Awaitable[None]]


def origin_of(scope: WebSocketScope) -> ParseResult | None:
    """The parsed ``Origin`` header, or ``None`` if absent."""
    for name, value in scope.get("headers", []):
        if name == b"origin":
            return urlparse(value.decode("latin1"))
    return None


def spoken_subprotocol(offered: Sequence[str], spoken: Sequence[str] = SPOKEN) -> str | None:
    """The subprotocol to accept with: one the server speaks, if the client offered it.

    A browser that offered subprotocols fails a handshake answered with none. It would never see
    the refusal's frame. ``bearer.<token>`` is a credential, never echoed."""
    return next((name for name in spoken if name in offered), None)


class OriginGuard(OriginValidator):
    """``OriginValidator`` that allows no ``Origin`` and refuses foreign ones, coded."""

    def __init__(self, application: ASGI3Application) -> None:
        super().__init__(application, allowed_origins=[])

    async def __call__(
        self, scope: WebSocketScope, receive: ASGIReceiveCallable, send: FrameSend
    ) -> None:
        origin = origin_of(scope)
        # The settings are read per connection: tests (and only tests) change them.
        self.allowed_origins = [*settings.ALLOWED_HOSTS, *settings.WEBSOCKET_ALLOWED_ORIGINS]
        if origin is None or self.valid_origin(origin):
            await self.application(scope, receive, send)
            return
        await refuse_origin(scope, receive, send)


async def refuse_origin(
    scope: WebSocketScope, receive: ASGIReceiveCallable, send: FrameSend
) -> None:
    """Accept, send the ``forbidden_origin`` frame, and close with 4403.

    A page sees both."""
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before its handshake reached the application
    with translation.override(scope_language(scope)):
        message = _("This page's origin may not open a socket on this server.")
    frame = {"type": "error", "code": "forbidden_origin", "message": message}
    subprotocol = spoken_subprotocol(list(scope.get("subprotocols", [])))
    await send({"type": "websocket.accept", "subprotocol": subprotocol, "headers": []})
    await send({"type": "websocket.send", "text": json.dumps(frame, ensure_ascii=False)})
    await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN, "reason": "forbidden_origin"})
