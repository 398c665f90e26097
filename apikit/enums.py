"""GraphQL enums made from the values the server already knows (its choices and constants).

``enum_of`` is the one maker. A declared enum's members are its values upper-cased (``City`` →
``CITY``, ``beach_cup`` → ``BEACH_CUP``). Its Python values are the values themselves. So a
resolver hands a service the very string REST would.

The input types of ``apikit.actions`` find the enum of a serializer's ``ChoiceField`` by its
choices (``enum_for``). A choice set without a declared enum fails at import. It is never
silently a string.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Any, TypeVar

import strawberry

T = TypeVar("T")

_BY_VALUES: dict[frozenset[str], type[enum.Enum]] = {}


def member_name(value: str) -> str:
    """``value`` as a GraphQL enum member name (``beach_cup`` → ``BEACH_CUP``)."""
    return re.sub(r"\W", "_", value).upper()


def enum_of(name: str, values: Iterable[str], description: str) -> Any:
    """A strawberry enum named ``name`` whose members are ``values``, registered by them.

    It returns ``Any`` because arguments are annotated with it."""
    chosen = list(values)
    python = enum.Enum(name, [(member_name(v), v) for v in chosen])  # type: ignore[misc]
    made: type[enum.Enum] = strawberry.enum(python, description=description)
    _BY_VALUES[frozenset(chosen)] = made
    return made


def enum_for(values: Iterable[object]) -> type[enum.Enum]:
    """The declared enum of exactly ``values`` (a ``ChoiceField``'s choices)."""
    key = frozenset(str(v) for v in values)
    try:
        return _BY_VALUES[key]
    except KeyError:
        raise LookupError(f"no GraphQL enum declared for the choices {sorted(key)}") from None


def registered() -> list[type[enum.Enum]]:
    """Every declared enum."""
    return list(_BY_VALUES.values())


def plain(value: T) -> T | str:
    """An enum member's value (``enum_of``'s are text); anything else as it is."""
    return value.value if isinstance(value, enum.Enum) else value
