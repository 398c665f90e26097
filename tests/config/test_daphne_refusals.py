"""Daphne's own refusals, on a live server (``server.daphne_server``): oversize URLs and
headers, a body Twisted cannot parse, an oversize socket message and the app's close reasons
are each answered with a code, where the connection used to be dropped or answered empty."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from server.daphne_server import HEADERS_LIMIT, LINE_LIMIT
from tests.live_server import live_server

MULTIPART = "multipart/form-data; boundary=xyz"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    folder: Path = tmp_path_factory.mktemp("daphne")
    with live_server(folder) as url:
        address = urlsplit(url)
        assert address.hostname is not None and address.port is not None
        yield address.hostname, address.port


def ask(
    server: tuple[str, int],
    path: str,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes | None = None,
) -> tuple[int, str, dict[str, Any]]:
    connection = http.client.HTTPConnection(*server, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), json.loads(response.read())
    finally:
        connection.close()


def code_of(body: dict[str, Any]) -> str:
    """REST's ``code``, or GraphQL's first error's."""
    if "errors" in body:
        return str(body["errors"][0]["extensions"]["code"])
    return str(body["code"])


@pytest.mark.parametrize("path", ["/api/v1/health/", "/graphql/"])
def test_a_query_string_over_the_line_limit_is_414_in_json(
    server: tuple[str, int], path: str
) -> None:
    status, kind, body = ask(server, f"{path}?q={'a' * 100_000}")
    assert (status, kind, code_of(body)) == (414, "application/json", "url_too_long")
    assert ("errors" in body) == (path == "/graphql/")


def test_one_header_over_the_line_limit_is_431_in_json(server: tuple[str, int]) -> None:
    status, kind, body = ask(server, "/api/v1/health/", {"X-Big": "b" * 60_000})
    assert (status, kind, code_of(body)) == (431, "application/json", "headers_too_large")
    assert body["details"] == {"max_line_bytes": LINE_LIMIT, "max_bytes": HEADERS_LIMIT}


def test_headers_over_the_total_limit_are_431_in_json(server: tuple[str, int]) -> None:
    headers = {f"X-Part-{n}": "p" * (LINE_LIMIT // 2) for n in range(5)}
    status, _, body = ask(server, "/graphql/", headers)
    assert (status, code_of(body)) == (431, "headers_too_large")


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/graphql/"])
def test_a_malformed_multipart_body_is_a_coded_400(server: tuple[str, int], path: str) -> None:
    body = b"--nope\r\ngarbage without a closing boundary"
    status, kind, answer = ask(server, path, {"Content-Type": MULTIPART}, "POST", body)
    assert (status, kind, code_of(answer)) == (400, "application/json", "bad_request")


def test_headers_within_the_limits_are_served(server: tuple[str, int]) -> None:
    status, _, body = ask(server, "/api/v1/health/", {"X-Fine": "f" * 8000})
    assert status == 200, body


def closed(url: str, *messages: str) -> tuple[int, str]:
    with connect(url, subprotocols=["graphql-transport-ws"], max_size=None) as socket:  # type: ignore[list-item]
        for message in messages:
            socket.send(message)
        try:
            while True:
                socket.recv(timeout=10)
        except ConnectionClosed as closing:
            assert closing.rcvd is not None, "dropped with no close frame"
            return closing.rcvd.code, closing.rcvd.reason


def test_a_socket_message_over_1_mib_closes_1009_with_a_reason(server: tuple[str, int]) -> None:
    url = f"ws://{server[0]}:{server[1]}/ws/graphql/"
    code, reason = closed(url, json.dumps({"type": "ping", "payload": "x" * 1_100_000}))
    assert code == 1009
    assert reason.startswith("too_large: ")


def test_a_graphql_socket_4400_carries_its_reason(server: tuple[str, int]) -> None:
    code, reason = closed(f"ws://{server[0]}:{server[1]}/ws/graphql/", "not json")
    assert code == 4400
    assert reason.startswith("parse_error: ")


@pytest.mark.parametrize(
    ("path", "close", "prefix"),
    [
        ("/ws/tournaments/1/?after=x", 4400, "invalid: "),
        ("/ws/tournaments/999999/", 4404, "not_found: "),
        ("/ws/nowhere/", 4404, "not_found: "),
    ],
)
def test_a_stream_close_carries_a_reason_that_starts_with_its_code(
    server: tuple[str, int], path: str, close: int, prefix: str
) -> None:
    code, reason = closed(f"ws://{server[0]}:{server[1]}{path}")
    assert code == close
    assert reason.startswith(prefix)
