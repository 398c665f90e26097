"""The live event stream of a tournament: ``ws://host/ws/tournaments/{id}/?after=N``.

A seat authenticates in the handshake's subprotocols, so its token stays out of every URL (and out
of access logs). It sends ``Sec-WebSocket-Protocol: challengers.v1, bearer.<token>``; the answer is
``challengers.v1``. ``?token=`` is still read, deprecated, for one release.

On connect the viewer gets every event after ``N`` it may see, from the database log. Then comes the
live stream. Each nudge from the channel layer makes the consumer read the log again. It reads from
the last seq it sent. So nothing is lost or repeated, however nudges arrive. A spectator (no token)
gets the public events only. A seat also gets its own private ones.

A refusal is a frame ``{"type": "error", "code", "message"}``, then a close with a code:

- 4400: a bad ``after`` (not a whole number, or beyond the tournament's log);
- 4401: an unknown token;
- 4404: no such tournament or no such stream (an unknown ``/ws/`` path, a missing slash);
- 4403 ``forbidden_origin``: a page of another site, refused before any route
  (``infra.wsorigin``).

The stream takes no messages. Any client frame (text, JSON or not, or binary) gets the error frame
``read_only``. Then the stream goes on. Refusals and error frames are in the opening request's
language (``?lang=`` or ``Accept-Language``, ``infra.i18n``).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from urllib.parse import parse_qs

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable, Scope, WebSocketScope
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apikit.asyncapi import (
    CloseCode,
    Message,
    Socket,
    declare_socket,
    frame,
)
from apikit.events import json_components
from infra import metrics
from infra.errors import NotFoundError
from infra.i18n import scope_language
from infra.middleware import MAX_ID
from infra.wsorigin import CLOSE_FORBIDDEN, STREAM_PROTOCOL, spoken_subprotocol
from matches.observer import Viewer
from tournaments.inputs import MAX_NUMBER, whole_number
from tournaments.log_shapes import TOURNAMENT_EVENTS
from tournaments.selectors.events import LogSlice, event_texts_after, released_seq
from tournaments.selectors.viewers import BadToken, seat_of_token, viewer_in
from tournaments.services.events import group_name

CLOSE_BAD_REQUEST = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404
BEARER = "bearer."  # the subprotocol that carries a seat token: bearer.<token>
CLOSE_REASON_BYTES = 123  # the most a close frame's reason holds

ERROR_FRAME = Message(
    "streamError",
    "A refusal (then a close) or an answer to a client frame (`read_only`).",
    frame(
        "error",
        {
            "code": {"type": "string", "description": "Stable: `invalid`, `bad_token`, …"},
            "message": {"type": "string", "description": "For people, in the stream's language."},
        },
    ),
)
STREAM = declare_socket(
    Socket(
        name="tournament_stream",
        title="a tournament's event stream",
        address="/ws/tournaments/{tournament_id}/",
        description=(
            "Every event of the tournament's log after `after` the viewer may see, in `seq` "
            "order with no gap (an event it may not see comes as `hidden`), then each new one "
            "as it is released (docs/protocol.md §13). A refusal is an error frame, then a "
            "close whose reason starts with its code (`invalid: …`)."
        ),
        parameters={"tournament_id": "The tournament's id."},
        subprotocol=(
            f"`{STREAM_PROTOCOL}`, and a seat's token as `{BEARER}<token>` (none: a "
            f"spectator): `{STREAM_PROTOCOL}, {BEARER}<token>`; answered `{STREAM_PROTOCOL}`."
        ),
        query={
            "token": "Deprecated (for one release): the seat token; send it as a subprotocol.",
            "after": "The last seq the client holds (default 0).",
            "lang": "The language of error frames (else Accept-Language).",
        },
        sends=(
            Message(
                "streamEvent",
                "An event of the tournament's log as the viewer may see it, by its `kind`.",
                {
                    "allOf": [
                        frame("event", {}),
                        {"$ref": f"#/components/schemas/{TOURNAMENT_EVENTS.name}"},
                    ]
                },
            ),
            ERROR_FRAME,
        ),
        receives=(
            Message(
                "clientFrame",
                "Any frame from the client: the stream takes none and answers `read_only`.",
                {},
            ),
        ),
        close_codes=(
            CloseCode(
                CLOSE_BAD_REQUEST,
                "`invalid`: a bad `after` (not a whole number, or beyond the tournament's log).",
            ),
            CloseCode(CLOSE_BAD_TOKEN, "`bad_token`: a token no seat holds."),
            CloseCode(
                CLOSE_FORBIDDEN, "`forbidden_origin`: a page of another site, before any route."
            ),
            CloseCode(CLOSE_NOT_FOUND, "`not_found`: no such tournament, or no such stream."),
        ),
        schemas=json_components(TOURNAMENT_EVENTS.name),
    )
)


class Refused(Exception):
    def __init__(self, close_code: int, code: str, message: str) -> None:
        super().__init__(message)
        self.close_code, self.code, self.message = close_code, code, message


def _viewer(tournament_id: int, token: str | None, after: int) -> Viewer:
    """The viewer (a seat of the tournament or a spectator), or ``Refused``.

    It is resolved as REST resolves it (``selectors.viewers``). Another tournament's token watches
    as a spectator. A token no seat holds is refused.
    """
    try:
        logged = released_seq(tournament_id)
        viewer = viewer_in(seat_of_token(token), tournament_id)
    except NotFoundError as missing:
        raise Refused(CLOSE_NOT_FOUND, missing.code, missing.message) from missing
    except BadToken as bad:
        raise Refused(CLOSE_BAD_TOKEN, bad.code, bad.message) from bad
    if after > logged:
        # Nothing would ever be sent: the client's seq comes from another tournament or server.
        message = _("`after` is beyond the last released event (%(seq)s).") % {"seq": logged}
        raise Refused(CLOSE_BAD_REQUEST, "invalid", message)
    return viewer


def _after(query: dict[str, list[str]]) -> int:
    value = whole_number(query.get("after", ["0"])[0])
    if value is None:
        raise Refused(
            CLOSE_BAD_REQUEST,
            "invalid",
            _("`after` must be a whole number from 0 to %(max)s.") % {"max": MAX_NUMBER},
        )
    return value


def _query(scope: WebSocketScope) -> dict[str, list[str]]:
    """The query string's parameters. Non-UTF-8 bytes become U+FFFD (a bad token)."""
    return parse_qs(scope.get("query_string", b"").decode("utf-8", errors="replace"))


def stream_token(scope: WebSocketScope, query: dict[str, list[str]]) -> str | None:
    """The seat token: the ``bearer.<token>`` subprotocol, else ``?token=`` (deprecated)."""
    for subprotocol in scope.get("subprotocols", []):
        if subprotocol.startswith(BEARER):
            return str(subprotocol[len(BEARER) :])
    return query.get("token", [None])[0]


async def accept(consumer: AsyncJsonWebsocketConsumer) -> None:
    """Accept with ``challengers.v1`` when the client offered it.

    Browsers that offered subprotocols fail a handshake answered with none.
    """
    offered = consumer.scope.get("subprotocols", [])
    await consumer.accept(subprotocol=spoken_subprotocol(offered, (STREAM_PROTOCOL,)))


async def refuse(consumer: AsyncJsonWebsocketConsumer, refused: Refused) -> None:
    """Send the error frame, then close with the refusal's code.

    The close reason starts with the code (``invalid: …``), so a browser sees both.
    """
    await consumer.send_json({"type": "error", "code": refused.code, "message": refused.message})
    await consumer.close(code=refused.close_code, reason=close_reason(refused))


def close_reason(refused: Refused) -> str:
    """``code: message``, cut to the 123 bytes a close reason holds."""
    reason = f"{refused.code}: {refused.message}".encode()[:CLOSE_REASON_BYTES]
    return reason.decode(errors="ignore")


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    counted = False  # this socket is in the open-streams gauge (metrics.WS_OPEN)

    async def __call__(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        """The consumer's whole life.

        A socket counted open is uncounted when it ends, however it ends. It may end by a
        disconnect. Or it may end by a failure in connect, as when the channel layer's Redis is
        down. Channels then calls no ``disconnect``.
        """
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._uncount()

    def _uncount(self) -> None:
        if self.counted:
            self.counted = False
            metrics.WS_OPEN.dec()

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = _query(self.scope)
        self.timer: asyncio.Task[None] | None = None
        self.caught_up = False  # the log up to now is old news, not lag
        self.lock = asyncio.Lock()
        self.language = scope_language(self.scope)  # ?lang=, else Accept-Language
        await accept(self)
        with translation.override(self.language):
            await self._open(query)

    async def _open(self, query: dict[str, list[str]]) -> None:
        try:
            if self.tournament_id > MAX_ID:  # no such row; SQLite could not even look it up
                raise Refused(CLOSE_NOT_FOUND, "not_found", _("No such tournament."))
            self.last = _after(query)
            token = stream_token(self.scope, query)
            self.viewer = await database_sync_to_async(_viewer)(
                self.tournament_id, token, self.last
            )
        except Refused as refused:
            await refuse(self, refused)
            return
        self.group = group_name(self.tournament_id)
        metrics.WS_OPEN.inc()
        self.counted = True
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.deliver()

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self._uncount()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: object
    ) -> None:
        """Any frame, text or binary, parsed or not.

        The stream takes no messages, and goes on.
        """
        with translation.override(self.language):
            message = _("This stream only sends events.")
        await self.send_json({"type": "error", "code": "read_only", "message": message})

    async def log_grew(self, message: dict[str, object]) -> None:
        await self.deliver()

    async def deliver(self) -> None:
        """Send what the log holds after the last sent seq; wake up for held-back events.

        News lag is measured once the catch-up on connect is sent. That catch-up is one or more full
        batches."""
        async with self.lock:
            part: LogSlice = await database_sync_to_async(event_texts_after)(
                tournament_id=self.tournament_id, after=self.last, viewer=self.viewer
            )
            for frame in part.events:  # JSON text built around each stored payload
                await self.send(text_data=frame)
            self.last = part.last_seq
        metrics.frames_sent(len(part.events), part.released if self.caught_up else ())
        self.caught_up = self.caught_up or not part.more
        if part.next_due is not None:
            self._wake_at(part.next_due)

    def _wake_at(self, due: datetime) -> None:
        if self.timer is not None and not self.timer.done():
            self.timer.cancel()
        delay = max((due - timezone.now()).total_seconds(), 0.0)
        self.timer = asyncio.create_task(self._sleep_then_deliver(delay))

    async def _sleep_then_deliver(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.deliver()


class UnknownStreamConsumer(AsyncJsonWebsocketConsumer):
    """Every ``/ws/`` path no route matches.

    It gets a coded refusal, not a failed handshake.
    """

    async def connect(self) -> None:
        await accept(self)
        path = self.scope.get("path", "")
        with translation.override(scope_language(self.scope)):
            message = _("No stream at %(path)s: streams are /ws/tournaments/{id}/.") % {
                "path": path
            }
        await refuse(self, Refused(CLOSE_NOT_FOUND, "not_found", message))
