"""The API's JSON parser: DRF's, refusing what it would choke on with a coded 400."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

# No request body of the API nests more than a few levels; deep nesting only costs recursion
# (the decoder raises RecursionError at ~1000 levels, json.dumps and the engine earlier).
MAX_JSON_DEPTH = 32


class JsonParser(parsers.JSONParser):
    """``application/json`` bodies nested at most ``MAX_JSON_DEPTH`` levels, else ``too_deep``."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise _too_deep() from None
        if _deeper_than(data, MAX_JSON_DEPTH):
            raise _too_deep()
        return data


def _too_deep() -> ParseError:
    return ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.", code="too_deep")


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` levels (walked without recursion)."""
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
