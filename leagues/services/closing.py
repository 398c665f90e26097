"""A season's results close and reopen (docs/leagues.md, *Closing a season*).

An organizer closes them. Nothing changes them after: no date, schedule, correction or late
recording. Nor does a replay of the league (``kept_closed``). The organizer may reopen them. Each
time needs a reason, appended to the season's ``SeasonClosure`` audit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.errors import ConflictError
from leagues.models import (
    ClosureAction,
    League,
    RatingChange,
    Result,
    Season,
    SeasonClosure,
    Standing,
)
from leagues.services.leagues import require_open, require_organizer, require_season_in
from tournaments.selectors.viewers import Organizer

__all__ = ["kept_closed", "require_open", "season_close", "season_reopen"]


def season_close(*, organizer: Organizer | None, slug: str, season_id: int, reason: str) -> Season:
    """Close the season's results (``season_already_closed`` if they are)."""
    return _set(organizer, slug, season_id, reason, ClosureAction.CLOSE)


def season_reopen(*, organizer: Organizer | None, slug: str, season_id: int, reason: str) -> Season:
    """Reopen a closed season's results (``season_not_closed`` if they are open).

    A tournament that finished meanwhile is recorded by the reconciler's next pass.
    """
    return _set(organizer, slug, season_id, reason, ClosureAction.REOPEN)


def _set(
    organizer: Organizer | None, slug: str, season_id: int, reason: str, action: str
) -> Season:
    found = require_season_in(slug, season_id)
    by = require_organizer(organizer, found.league)
    with transaction.atomic():
        # Both locks every result write takes one of: recording and corrections hold the
        # league's, date edits and schedules the season's; each sees the season closed or
        # finishes before the close.
        League.objects.select_for_update().get(pk=found.league_id)
        season = Season.objects.select_for_update().get(pk=season_id)
        closing = action == ClosureAction.CLOSE
        if closing == (season.closed_at is not None):
            code = "season_already_closed" if closing else "season_not_closed"
            message = (
                _("This season's results are already closed.")
                if closing
                else _("This season's results are not closed.")
            )
            raise ConflictError(code, message, {"season": season.pk})
        now = timezone.now()
        season.closed_at = now if closing else None
        season.save(update_fields=["closed_at"])
        SeasonClosure.objects.create(season=season, action=action, reason=reason, by_id=by.user_id)
    return season


Record = tuple[list[tuple[Any, ...]], ...]


def _record(season_id: int) -> Record:
    """A season's results, standings and rating changes, as plain values in a fixed order."""
    results = Result.objects.filter(link__season_id=season_id).values_list(
        "link_id", "member_id", "seat", "place", "points", "fans", "champion", "finalist"
    )
    standings = Standing.objects.filter(season_id=season_id).values_list(
        "member_id", "points", "wins", "finals", "fans", "played"
    )
    changes = RatingChange.objects.filter(link__season_id=season_id).values_list(
        "link_id", "member_id", "mu_before", "sigma_before", "mu", "sigma"
    )
    return tuple(sorted(rows) for rows in (results, standings, changes))


@contextmanager
def kept_closed(league_id: int) -> Iterator[None]:
    """Refuse a replay of the league that would move a closed season.

    The caller holds the league's lock. The refusal is ``season_closed``. It names the first closed
    season whose results, standings or rating changes would move. The caller's transaction rolls the
    replay back. Ratings chain across seasons. So a correction in an earlier open season would move
    a later closed season's (docs/leagues.md).
    """
    closed = Season.objects.filter(league_id=league_id, closed_at__isnull=False).order_by("pk")
    before = {season: _record(season.pk) for season in closed}
    yield
    for season, record in before.items():
        if _record(season.pk) != record:
            raise ConflictError(
                "season_closed",
                _("This would change the closed season %(name)s: reopen it first.")
                % {"name": season.name},
                {"season": season.pk, "name": season.name},
            )
