"""GraphQL answers in REST's shape, so that the two can be compared field for field."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from apikit.enums import member_name, registered

RENAMED = {"room_code": "code"}
# Fields whose GraphQL type is an enum: its member (``LOBBY``) is REST's value (``lobby``).
ENUM_FIELDS = {
    *("status", "kind", "botLevel", "basicSet", "winterMode", "actions"),
    *("level", "timing", "box", "confidence"),
    *("winterPark", "outcome", "events", "tiebreak", "decidedBy", "noShow", "change"),
}


def enum_value(name: str) -> str:
    """REST's value of an enum member's name (``LOBBY`` → ``lobby``); any other text as is."""
    values = {member_name(str(m.value)): str(m.value) for kind in registered() for m in kind}
    return values.get(name, name)


# JSON scalars: passed through as the server's own JSON (their keys are data, not field names).
OPAQUE = {"fansGained", "payload", "details", "effectParams"}


CONNECTION = {"edges", "pageInfo", "totalCount"}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def rest_shape(value: Any, key: str = "") -> Any:
    """A connection to its nodes' list, camelCase keys to snake_case, ``roomCode`` to ``code``,
    ``databaseId`` to ``id``, enum members to REST's values, ISO
    instants to ``datetime`` (each side writes its own offset)."""
    if isinstance(value, dict) and "edges" in value and set(value) <= CONNECTION:
        return [rest_shape(edge["node"], key) for edge in value["edges"]]  # a whole connection
    if isinstance(value, dict):
        shaped = {
            RENAMED.get(snake(k), snake(k)): rest_json(v) if k in OPAQUE else rest_shape(v, k)
            for k, v in value.items()
        }
        if "database_id" in shaped:  # a Node's number is REST's id (its global id is not)
            shaped["id"] = shaped.pop("database_id")
        return shaped
    if isinstance(value, list):
        return [rest_shape(item, key) for item in value]
    if key in ENUM_FIELDS and isinstance(value, str):
        return enum_value(value)
    return instant(value)


def instant(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)", value):
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return value


def rest_json(value: Any) -> Any:
    """REST's JSON with its instants as ``datetime`` too."""
    if isinstance(value, dict):
        return {k: rest_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rest_json(item) for item in value]
    return instant(value)
