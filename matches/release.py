"""The one release rule (docs/architecture.md, "One release clock").

A fact is public once its release time has come: ``released_at <= now``. Every reader of a released
fact asks here.

A tournament's log events and a match's events carry ``visible_at``. A match's result carries
``result_visible_at``. An asked question carries its ``asked_at``. Each function takes ``now``: a
fixed instant a caller read once (or a test's). Else it reads the module's ``clock()``.

A result is public when the match is finished and its release time has come. The status alone is not
enough. A result may be stored finished with its release time still ahead.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from matches.models import Match, MatchStatus

VISIBLE_AT = "visible_at"


def clock() -> datetime:
    """Now, as the release rule reads it."""
    return timezone.now()


def released(field: str = VISIBLE_AT, *, now: datetime | None = None) -> Q:
    """Rows whose release time ``field`` has come.

    Through a relation, ``field`` is e.g. ``events__visible_at``."""
    return Q(**{f"{field}__lte": now or clock()})


def held(field: str = VISIBLE_AT, *, now: datetime | None = None) -> Q:
    """Rows whose release time ``field`` is still ahead (``released``'s complement)."""
    return Q(**{f"{field}__gt": now or clock()})


def released_since(since: datetime, field: str = VISIBLE_AT) -> Q:
    """Rows released at ``since`` or later.

    A window's rows, as the chat's pace counts them."""
    return Q(**{f"{field}__gte": since})


def is_released(at: datetime | None, *, now: datetime | None = None) -> bool:
    """Whether a fact released at ``at`` is out.

    ``None`` has no release time, so it is out."""
    return at is None or at <= (now or clock())


def result_public(match: Match, *, now: datetime | None = None) -> bool:
    """Whether ``match``'s result (winner, reason, fans) is public."""
    return match.status == MatchStatus.FINISHED and is_released(match.result_visible_at, now=now)


def public_results(prefix: str = "", *, now: datetime | None = None) -> Q:
    """``result_public`` as a filter of matches.

    ``prefix`` is the path to them, e.g. ``match__``."""
    at = f"{prefix}result_visible_at"
    return Q(**{f"{prefix}status": MatchStatus.FINISHED}) & (
        Q(**{f"{at}__isnull": True}) | released(at, now=now)
    )
