"""The transport under the generated operations, and the tournament stream with its resume.

``Client`` sends every operation of ``operations.py`` over HTTP (standard library only): JSON in
and out, the seat token as ``Authorization: Bearer``, an ``Idempotency-Key`` on every operation
that takes one (made here unless given), the same request sent again with the same key when no
answer came, and a coded refusal raised as ``ApiError``. ``Client.stream`` is the tournament's
event stream (``websockets``): gapless, resumed with ``?after=<last seq>`` after a drop.
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator
from typing import Any, cast

from .operations import Operations
from .stream_models import StreamErrorPayload, StreamEventPayload

StreamEvent = StreamEventPayload  # {"type": "event", "seq", "kind", "payload"}
StreamError = StreamErrorPayload  # {"type": "error", "code", "message"}


class ApiError(RuntimeError):
    """A coded refusal (docs/errors.md): the HTTP status, ``code``, ``message`` and ``details``."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.details = status, code, message, details


class StreamRefused(RuntimeError):
    """The stream refused the connection (an error frame, then a close code 4400-4404)."""

    def __init__(self, close_code: int | None, error: StreamError | None) -> None:
        code = error["code"] if error else "closed"
        super().__init__(f"stream refused ({close_code}): {code}")
        self.close_code, self.error = close_code, error


class Client(Operations):
    """The REST API as one caller (a seat's token, an organizer's, or none) at ``base``."""

    def __init__(
        self, base: str, token: str | None = None, *, timeout: float = 30, retries: int = 3
    ) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries

    def _call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        query: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        accept: str | None = "application/json",
    ) -> Any:
        headers = {"Accept": accept or "*/*"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if method != "GET":
            # One key per call: sent again with it, a request is never done twice.
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        data = None
        if body is not None or method in ("POST", "PATCH", "PUT"):
            headers["Content-Type"] = "application/json"
            data = json.dumps({} if body is None else body).encode()
        url = self.base + path
        if query:
            pairs = {k: _query_value(v) for k, v in query.items() if v is not None}
            url += "?" + urllib.parse.urlencode(pairs) if pairs else ""
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        for attempt in range(self.retries):
            try:
                return self._send(request, accept)
            except urllib.error.HTTPError:
                raise
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt == self.retries - 1:  # no answer: the same request again
                    raise
        raise AssertionError("unreachable")

    def _send(self, request: urllib.request.Request, accept: str | None) -> Any:
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                refusal = json.loads(raw)
                code, message = refusal["code"], refusal.get("message", "")
            except (ValueError, KeyError, TypeError):
                raise ApiError(error.code, "http_error", raw.decode(errors="replace")) from error
            raise ApiError(error.code, code, message, refusal.get("details")) from error
        if accept == "application/json":
            return json.loads(raw) if raw else None
        return raw.decode() if accept else None

    def stream(
        self, tournament: int, *, after: int = 0, retries: int = 5, lang: str | None = None
    ) -> TournamentStream:
        """The tournament's event stream from ``after`` (as this client's seat, or a spectator
        without a token): ``async for event in client.stream(7): ...``."""
        return TournamentStream(self, tournament, after=after, retries=retries, lang=lang)


def _query_value(value: Any) -> Any:
    return str(value).lower() if isinstance(value, bool) else value


class TournamentStream:
    """``/ws/tournaments/{id}/`` as an async iterator of event frames, in ``seq`` order with no
    gap and no repeat. When the connection drops (a network error, a server restart, ``drop()``)
    it connects again with ``?after=<the last seq received>`` and goes on where it was; after
    ``retries`` failed connections in a row it raises. A refusal (a bad token, no such
    tournament, a bad ``after``) raises ``StreamRefused`` at once."""

    def __init__(
        self,
        client: Client,
        tournament: int,
        *,
        after: int = 0,
        retries: int = 5,
        lang: str | None = None,
    ) -> None:
        socket_base = "ws" + client.base.removeprefix("http")
        self.url = f"{socket_base}/ws/tournaments/{tournament}/"
        self.token = client.token
        self.last_seq = after
        self.retries = retries
        self.lang = lang
        self.reconnects = 0  # connections made again after a drop
        self._socket: Any = None
        self._error: StreamError | None = None

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        return self._events()

    async def drop(self) -> None:
        """Cut the current connection as a network failure would (no closing handshake): the
        stream connects again and resumes."""
        if self._socket is not None:
            self._socket.transport.abort()

    async def _events(self) -> AsyncIterator[StreamEvent]:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        from websockets.typing import Subprotocol

        protocols = [Subprotocol("challengers.v1")]
        if self.token:  # the token rides in the handshake, out of the URL and the access logs
            protocols.append(Subprotocol(f"bearer.{self.token}"))
        failures = 0
        while True:
            query = {"after": str(self.last_seq), **({"lang": self.lang} if self.lang else {})}
            self._error = None
            close_code: int | None = None
            try:
                url = f"{self.url}?{urllib.parse.urlencode(query)}"
                async with connect(url, subprotocols=protocols) as socket:
                    self._socket = socket
                    async for message in socket:
                        event = self._take(json.loads(message))
                        if event is not None:
                            failures = 0
                            yield event
                    close_code = socket.close_code
            except ConnectionClosed as closed:  # a close other than 1000/1001, or a drop
                close_code = closed.rcvd.code if closed.rcvd else None
            except (InvalidHandshake, OSError, TimeoutError):
                close_code = None
            finally:
                self._socket = None
            if close_code is not None and 4000 <= close_code < 5000:
                raise StreamRefused(close_code, self._error)
            failures += 1
            if failures > self.retries:
                raise ConnectionError(f"{self.url}: {failures} failed connections in a row")
            self.reconnects += 1
            await asyncio.sleep(min(0.2 * 2 ** (failures - 1), 5.0) if failures > 1 else 0)

    def _take(self, frame: dict[str, Any]) -> StreamEvent | None:
        """The frame's event if it is the next one; ``None`` for one already had, or an error
        frame (kept: a close follows it)."""
        if frame.get("type") == "error":
            self._error = cast(StreamError, frame)
            return None
        seq = frame["seq"]
        if seq <= self.last_seq:  # already had it (a resumed connection starts after it)
            return None
        if seq != self.last_seq + 1:
            raise RuntimeError(f"stream gap: {self.last_seq} then {seq}")
        self.last_seq = seq
        return cast(StreamEvent, frame)
