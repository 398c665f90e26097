"""Daphne, whose own refusals are coded as the app's are.

Run it as ``python -m server.daphne_server``, with the same arguments as ``daphne``.
``manage.py serve`` and the compose stack's ``ws`` run it.

Twisted and autobahn refuse some requests before the app sees them. Their answers were not the
ones the docs describe:

- A request line over ``LINE_LIMIT`` bytes (a long query string), or a header line over it. Or
  all the headers over ``HEADERS_LIMIT``. The connection was dropped, or got an empty ``400``.
  Now they get ``414 url_too_long`` and ``431 headers_too_large`` in JSON.
- Any other request Twisted cannot parse, such as a malformed multipart body. (Twisted parses it
  before Daphne, for arguments Daphne never reads.) It got an empty ``400`` with no content
  type. Now it gets ``400 bad_request`` in JSON.
- A WebSocket message over Daphne's 1 MiB. The TCP connection was dropped. Now it is closed with
  ``1009`` and a reason that starts with ``too_large``.
- The app's close reasons (``4400``, ``invalid: …``). Daphne sent the code alone. Now it sends
  the reason too, at most 123 bytes, as the protocol allows.

Under ``/graphql/`` the JSON is GraphQL's error shape; elsewhere, REST's (docs/errors.md).
Daphne builds its factories by name inside ``Server.run``. ``CodedServer`` names ours there.

Its access log goes through Python's logging (``LOGGING``). Daphne wrote its access lines straight
to a stream. They were not JSON. They skipped the filter that masks tokens
(``infra.logfilters.RedactTokens``). Here each is a record of the logger ``daphne.access`` (INFO).
It is formatted and filtered as every other line. ``--access-log`` only turns it on, as ``-v 1``
(the default) does.
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
from collections.abc import Mapping
from typing import Any

import daphne.server
from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne.access import AccessLogGenerator
from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.web.http import HTTPChannel, _GenericHTTPChannelProtocol

LINE_LIMIT = 16384  # bytes of the request line, or of one header line (Twisted's)
HEADERS_LIMIT = 32768  # bytes of the request line and all the headers together
CLOSE_REASON_BYTES = 123  # the most a WebSocket close frame's reason holds
access_log = logging.getLogger("daphne.access")
REASONS = {414: "URI Too Long", 431: "Request Header Fields Too Large", 400: "Bad Request"}


def refusal_body(path: bytes, code: str, message: str, details: Mapping[str, object]) -> bytes:
    """The JSON of a refusal: GraphQL's error shape under ``/graphql/``, else REST's."""
    error = {"code": code, "message": message, "details": details}
    if path.startswith(b"/graphql"):
        graphql = {"message": message, "extensions": {"code": code, "details": details}}
        return json.dumps({"errors": [graphql]}).encode()
    return json.dumps(error).encode()


class CodedHTTPChannel(HTTPChannel):
    """Twisted's HTTP channel, refusing a bad request head in coded JSON."""

    MAX_LENGTH = LINE_LIMIT
    totalHeadersSize = HEADERS_LIMIT

    def lineReceived(self, line: bytes) -> object:
        if self._receivedHeaderSize + len(line) > self.totalHeadersSize:
            self.refuse_head(line)
            return None
        return super().lineReceived(line)

    def lineLengthExceeded(self, line: bytes) -> None:
        self.refuse_head(line)

    def refuse_head(self, line: bytes) -> None:
        if self._receivedHeaderSize == 0:  # the request line: its URL is too long
            message = f"The URL is over {LINE_LIMIT} bytes."
            self.refuse(414, _path_of(line), "url_too_long", message, {"max_bytes": LINE_LIMIT})
            return
        limits = {"max_line_bytes": LINE_LIMIT, "max_bytes": HEADERS_LIMIT}
        message = f"The headers are over {HEADERS_LIMIT} bytes, or one over {LINE_LIMIT}."
        path = getattr(self, "_path", b"")
        self.refuse(431, path, "headers_too_large", message, limits)

    def _respondToBadRequestAndDisconnect(self) -> None:
        path = getattr(self, "_path", b"")
        message = "The request cannot be read (a malformed header or multipart body)."
        self.refuse(400, path, "bad_request", message, {})

    def refuse(
        self, status: int, path: bytes, code: str, message: str, details: Mapping[str, object]
    ) -> None:
        """Answer the refusal, then stop reading the request.

        The connection closes once the client has read the answer, or after ``timeOut``."""
        body = refusal_body(path, code, message, details)
        head = (
            f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        )
        transport: Any = self.transport
        transport.write(head.encode() + body)
        self.dataReceived = self.lineReceived = _ignore  # type: ignore[method-assign,assignment]
        half_close = getattr(transport, "loseWriteConnection", None)
        if half_close is None:
            self.loseConnection()
            return
        half_close()  # an abrupt close with unread input would reset the answer away
        self.setTimeout(5)


def _ignore(*_args: object) -> None:
    return None


def _path_of(line: bytes) -> bytes:
    parts = line.split(b" ", 2)
    return parts[1] if len(parts) > 1 else b""


class CodedHTTPFactory(HTTPFactory):
    def protocol(self) -> _GenericHTTPChannelProtocol:
        return _GenericHTTPChannelProtocol(CodedHTTPChannel())


class CodedWebSocketProtocol(WebSocketProtocol):
    """Daphne's WebSocket protocol, sending close reasons.

    It sends the app's close reason, and a reason for 1009."""

    def handle_reply(self, message: dict[str, object]) -> None:
        if message.get("type") == "websocket.close" and self.state != self.STATE_CONNECTING:
            code, reason = message.get("code") or 1000, message.get("reason")
            text = reason if isinstance(reason, str) else ""
            self.sendClose(code=code, reason=close_reason(text))
            return
        super().handle_reply(message)

    def _fail_connection(
        self, code: int = AutobahnProtocol.CLOSE_STATUS_CODE_GOING_AWAY, reason: str = ""
    ) -> None:
        if code == AutobahnProtocol.CLOSE_STATUS_CODE_MESSAGE_TOO_BIG:
            limit = self.maxMessagePayloadSize
            reason = f"too_large: A message is at most {limit} bytes."
        super()._fail_connection(code, close_reason(reason))


def close_reason(reason: str) -> str:
    """``reason`` cut to the 123 bytes a close frame holds.

    The cut falls at a character's boundary."""
    return reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")


class CodedWebSocketFactory(WebSocketFactory):
    protocol = CodedWebSocketProtocol

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        # A message over the size limit closes with 1009 and a reason, not a dropped connection.
        self.setProtocolOptions(failByDrop=False)


class AccessLog(AccessLogGenerator):
    """Daphne's access entries as log records: ``client "request" status size``."""

    def __init__(self) -> None:
        super().__init__(stream=None)

    def write_entry(
        self,
        host: str,
        date: datetime.datetime,
        request: str,
        status: int | None = None,
        length: int | None = None,
        ident: str | None = None,
        user: str | None = None,
    ) -> None:
        # The record has its own time: Daphne's date (local, without a zone) is left out.
        access_log.info('%s "%s" %s %s', host, request, status or "-", length or "-")


class CodedServer(daphne.server.Server):
    def __init__(self, *args: object, action_logger: object = None, **kwargs: object) -> None:
        logger = AccessLog() if action_logger is not None else None
        super().__init__(*args, action_logger=logger, **kwargs)

    def run(self) -> None:
        daphne.server.HTTPFactory = CodedHTTPFactory
        daphne.server.WebSocketFactory = CodedWebSocketFactory
        super().run()


class CodedCommandLine(CommandLineInterface):
    server_class = CodedServer


def main(argv: list[str]) -> None:
    CodedCommandLine().run(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
