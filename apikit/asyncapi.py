"""The WebSocket contract, declared next to each socket and rendered as one AsyncAPI 3.0 document.

A socket's module declares what it carries (``Socket``). That is its address, the messages the
server sends and those it takes, and the codes it closes with. ``declare_socket`` registers it.

The document (``asyncapi_document``) describes the server as the application. An operation
``send…`` is for what it sends, ``receive…`` for what it takes. A message's payload is a JSON
schema (AsyncAPI's default schema format). A shape's payload is made from the shape's own
declaration (``shape_payload``). So stream frames and REST answers cannot drift apart.

AsyncAPI has no field for close codes. Each channel lists them under ``x-close-codes`` (and in its
description).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import overload

from apikit.shapes import Shape, openapi_schema

ASYNCAPI_VERSION = "3.0.0"


@dataclass(frozen=True)
class Message:
    """One kind of frame: its component's name, a one-line summary, its JSON schema."""

    name: str
    summary: str
    payload: dict[str, object]


@dataclass(frozen=True)
class CloseCode:
    code: int
    meaning: str


@dataclass(frozen=True)
class Socket:
    """A WebSocket endpoint, at ``address`` with ``{parameters}``.

    Its query parameters map a name to a description. ``sends``: the server's frames;
    ``receives``: the client's. ``subprotocol`` says, in words, what a client offers in
    ``Sec-WebSocket-Protocol``."""

    name: str
    title: str
    address: str
    description: str
    sends: tuple[Message, ...]
    receives: tuple[Message, ...]
    close_codes: tuple[CloseCode, ...]
    parameters: dict[str, str] = field(default_factory=dict)
    query: dict[str, str] = field(default_factory=dict)
    subprotocol: str | None = None
    schemas: dict[str, object] = field(default_factory=dict)  # what its payloads reference


SOCKETS: dict[str, Socket] = {}


def declare_socket(socket: Socket) -> Socket:
    """Register a socket's declaration (from its module, at import)."""
    SOCKETS[socket.name] = socket
    return socket


# Payloads ----------------------------------------------------------------------------------


def shape_payload(cls: type[Shape], **extra: dict[str, object]) -> dict[str, object]:
    """A shape's JSON schema, its nested shapes inlined.

    The required ``extra`` properties come first. (The stream's frame is the shape's keys after
    ``"type"``.)"""
    made = json_schema(openapi_schema(cls, lambda nested: shape_payload(nested)))
    own, required = made["properties"], made.get("required", [])
    assert isinstance(own, dict) and isinstance(required, list)  # openapi_schema's
    return {**made, "properties": {**extra, **own}, "required": [*extra, *required]}


@overload
def json_schema(node: dict[str, object]) -> dict[str, object]: ...
@overload
def json_schema(node: object) -> object: ...
def json_schema(node: object) -> object:
    """OpenAPI 3.0's schema dialect as JSON Schema (``nullable``: a ``null`` type)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    made = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if not node.get("nullable"):
        return made
    if "type" in made:
        return {**made, "type": [made["type"], "null"]}
    alternatives = made.pop("allOf", None)
    listed = alternatives if isinstance(alternatives, list) else [made]
    return {"oneOf": [*listed, {"type": "null"}], **made}


def constant(value: str) -> dict[str, object]:
    return {"type": "string", "const": value}


def frame(
    kind: str, properties: dict[str, object], required: tuple[str, ...] | None = None
) -> dict[str, object]:
    """A JSON object frame whose ``type`` is ``kind``."""
    every = {"type": constant(kind), **properties}
    return {
        "type": "object",
        "properties": every,
        "required": ["type", *(required if required is not None else properties)],
    }


# The document ------------------------------------------------------------------------------


def asyncapi_document(
    title: str, version: str, description: str, sockets: list[Socket]
) -> dict[str, object]:
    """The AsyncAPI 3.0 document of ``sockets`` (in the order given)."""
    channels: dict[str, object] = {}
    operations: dict[str, object] = {}
    messages: dict[str, object] = {}
    schemas: dict[str, object] = {}
    for socket in sockets:
        schemas.update(socket.schemas)
        channels[socket.name] = _channel(socket)
        for action, listed in (("send", socket.sends), ("receive", socket.receives)):
            if listed:
                operations[_camel(action, socket.name)] = _operation(socket, action, listed)
        for message in (*socket.sends, *socket.receives):
            messages[message.name] = {
                "name": message.name,
                "summary": message.summary,
                "contentType": "application/json",
                "payload": message.payload,
            }
    return {
        "asyncapi": ASYNCAPI_VERSION,
        "info": {"title": title, "version": version, "description": description},
        "defaultContentType": "application/json",
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages, "schemas": dict(sorted(schemas.items()))}
        if schemas
        else {"messages": messages},
    }


def _channel(socket: Socket) -> dict[str, object]:
    codes = "\n".join(f"- `{c.code}`: {c.meaning}" for c in socket.close_codes)
    made: dict[str, object] = {
        "address": socket.address,
        "title": socket.title,
        "description": f"{socket.description}\n\nClose codes:\n{codes}",
        "messages": {
            message.name: {"$ref": f"#/components/messages/{message.name}"}
            for message in (*socket.sends, *socket.receives)
        },
        "x-close-codes": [{"code": c.code, "meaning": c.meaning} for c in socket.close_codes],
    }
    if socket.parameters:
        made["parameters"] = {
            name: {"description": text} for name, text in socket.parameters.items()
        }
    binding: dict[str, object] = {"method": "GET", "bindingVersion": "0.1.0"}
    if socket.query:
        binding["query"] = {
            "type": "object",
            "properties": {
                name: {"type": "string", "description": text} for name, text in socket.query.items()
            },
        }
    if socket.subprotocol:
        header = {"type": "string", "description": socket.subprotocol}
        binding["headers"] = {"type": "object", "properties": {"Sec-WebSocket-Protocol": header}}
    made["bindings"] = {"ws": binding}
    return made


def _operation(socket: Socket, action: str, listed: tuple[Message, ...]) -> dict[str, object]:
    return {
        "action": action,
        "channel": {"$ref": f"#/channels/{socket.name}"},
        "summary": (
            f"What the server sends on {socket.title}."
            if action == "send"
            else f"What the server takes on {socket.title}."
        ),
        "messages": [
            {"$ref": f"#/channels/{socket.name}/messages/{message.name}"} for message in listed
        ],
    }


def _camel(*words: str) -> str:
    head, *rest = "_".join(words).split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
