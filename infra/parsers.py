"""The API's JSON parser: DRF's, with a coded 400 for what it would choke on."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

# No request body of the API nests more than a few levels; deep nesting only costs recursion
# (the decoder raises RecursionError at ~1000 levels, json.dumps and the engine earlier).
MAX_JSON_DEPTH = 32


class JsonParser(parsers.JSONParser):
    """``application/json`` nested at most ``MAX_JSON_DEPTH`` levels, else ``too_deep``."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, object] | None = None,
    ) -> dict[str, object]:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if deeper_than(data, MAX_JSON_DEPTH):
            raise _too_deep()
        return data


class JsonTooDeep(ValueError):
    """JSON nested deeper than ``MAX_JSON_DEPTH`` levels (``too_deep``)."""

    def __init__(self) -> None:
        super().__init__(too_deep_message())


def too_deep_message() -> str:
    return _("JSON nested deeper than %(depth)s levels.") % {"depth": MAX_JSON_DEPTH}


def loads_shallow(text: str | bytes) -> object:
    """``json.loads`` for transports outside DRF: GraphQL's body, socket messages.

    A text nested deeper than ``MAX_JSON_DEPTH`` raises ``JsonTooDeep``. Not-JSON raises
    ``json.JSONDecodeError``."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise JsonTooDeep from None
    if deeper_than(data, MAX_JSON_DEPTH):
        raise JsonTooDeep
    return data


def _too_deep() -> ParseError:
    return ParseError(too_deep_message(), code="too_deep")


def deeper_than(data: object, limit: int) -> bool:
    """Whether lists and objects nest over ``limit`` levels (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, dict | list):
            continue
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((child, depth + 1) for child in children)
    return False
