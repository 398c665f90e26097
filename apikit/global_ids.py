"""An id GraphQL takes as the object's global ``ID`` (issue 41): the ``id`` a ``Node`` carries
(``TournamentView:7`` in base64), or, deprecated until the next release, the plain number (its
``databaseId``, what the argument took as an ``Int``). ``apikit.actions`` types an action's id
inputs so (``Ident.nodes``, ``Action.nodes``); a query's argument reads one with ``number_of``."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from strawberry import relay

from infra.errors import ApplicationError

MAX_NUMBER = 2**31 - 1
_NUMBER = re.compile(r"[0-9]{1,10}")


def number_of(value: Any, field: str, nodes: tuple[str, ...]) -> int | None:
    """The object's number ``value`` names: a global id of one of ``nodes``, or the number
    itself (deprecated). Anything else, a global id of another type included, is ``invalid``
    with ``field`` named (REST's field errors), before anything is read or written."""
    if value is None:
        return None
    text = str(value)
    found = _plain(text)
    if found is None:
        try:
            decoded = relay.GlobalID.from_id(text)
        except ValueError:
            decoded = None
        if decoded is not None and decoded.type_name in nodes:
            found = _plain(decoded.node_id)
    if found is None:
        raise ApplicationError(
            "invalid", _("Invalid input."), {field: [_("Not a global id of this API.")]}
        )
    return found


def _plain(text: str) -> int | None:
    if not _NUMBER.fullmatch(text) or not 0 < int(text) <= MAX_NUMBER:
        return None
    return int(text)


def described(text: str, nodes: tuple[str, ...]) -> str:
    """An id input's description: what it names, the global id it takes, the deprecated form."""
    kinds = " or ".join(f"`{node}`" for node in nodes)
    return (
        f"{text.rstrip('.')}: its global `id` (of a {kinds}). Deprecated: its number "
        "(`databaseId`) is still taken until the next release."
    )
