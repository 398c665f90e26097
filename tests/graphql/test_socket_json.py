"""The socket's messages are written by orjson, and what orjson cannot write as strawberry did."""

from __future__ import annotations

import json

from server.graphql_socket import socket_dumps


def test_a_message_reads_back_as_sent() -> None:
    message = {"id": "1", "type": "next", "payload": {"data": {"e": {"seq": 3, "p": [1, None]}}}}
    assert json.loads(socket_dumps(message)) == message


def test_what_orjson_cannot_write_is_written_by_the_standard_library() -> None:
    message = {"payload": {"data": {"big": 2**70}}, 1: "key"}
    assert socket_dumps(message) == json.dumps(message, separators=(",", ":"))
