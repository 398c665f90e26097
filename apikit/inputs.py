"""Strict request bodies.

What a body does not declare is refused (``unknown_field``). Whole numbers are JSON numbers.
Times name their zone. This module is apart from ``apikit.actions`` so that the apps' input
modules import it without the transports. (REST views import the apps' authentication.)"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from infra.errors import ApplicationError


# A body whose every field is declared: a field it does not declare is refused (``unknown_field``:
# ``details.field`` names it, dotted inside a nested body; ``unknown`` lists them all and
# ``allowed`` what the body takes, as ``unknown_parameter`` does) rather than silently ignored, so
# a client learns that what it meant to change was not changed. Nested bodies that are
# ``StrictInput`` s are checked the same way. (No docstring: the schemas would show it as every
# input's description.)
class StrictInput(serializers.Serializer):
    def to_internal_value(self, data: object) -> object:
        if isinstance(data, Mapping):
            names = [_dotted(self, str(name)) for name in data if name not in self.fields]
            refuse_unknown_names(names, allowed=sorted(self.fields))
        return super().to_internal_value(data)


def refuse_unknown(body: object, *, allowed: list[str]) -> None:
    """``unknown_field`` for every field of ``body`` not in ``allowed``."""
    if isinstance(body, Mapping):
        refuse_unknown_names([str(name) for name in body if name not in allowed], allowed=allowed)


def refuse_unknown_names(names: list[str], *, allowed: list[str]) -> None:
    if names:
        names = sorted(names)
        message = _("Unknown field: %(field)s.") % {"field": names[0]}
        details = {"field": names[0], "unknown": names, "allowed": allowed}
        raise ApplicationError("unknown_field", message, details)


class StrictIntegerField(serializers.IntegerField):
    """A whole number as a JSON number only.

    DRF's ``IntegerField`` takes ``"1"``, ``1.0`` and ``true`` too. A client that sends those
    has a bug worth hearing about (``invalid``)."""

    default_error_messages = {
        "not_integer": gettext_lazy("A whole number is required, as a JSON number.")
    }

    def to_internal_value(self, data: object) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_integer")
        return super().to_internal_value(data)


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time that names its zone (``Z`` or an offset).

    A time without one is refused (``naive_datetime``), not read in the server's zone."""

    def to_internal_value(self, value: datetime.datetime | str) -> datetime.datetime:
        if isinstance(value, str):
            parsed = parse_datetime(value.strip())
            if parsed is not None and timezone.is_naive(parsed):
                own = str(self.field_name)
                name = _dotted(self.parent, own) if self.parent is not None else own
                message = _("%(field)s needs a time zone (Z or an offset such as +02:00).") % {
                    "field": name
                }
                raise ApplicationError("naive_datetime", message, {"field": name})
        return super().to_internal_value(value)


def _dotted(serializer: serializers.Field, name: str) -> str:
    """``name`` prefixed with the fields that nest it (``scoring.x``)."""
    parts = [name]
    node: Any = serializer
    while node.parent is not None:
        parts.insert(0, node.field_name)
        node = node.parent
    return ".".join(parts)
