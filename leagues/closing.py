"""A season's results close and reopen: an organizer closes them (nothing changes them after:
no date, schedule, correction or late recording) and may reopen them, each time with a reason,
appended to the season's ``SeasonClosure`` audit (docs/leagues.md, *Closing a season*)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.errors import ConflictError
from leagues.models import ClosureAction, League, Season, SeasonClosure
from leagues.services import require_open, require_organizer, require_season_in
from tournaments.selectors.viewers import Organizer

__all__ = ["require_open", "season_close", "season_reopen"]


def season_close(*, organizer: Organizer | None, slug: str, season_id: int, reason: str) -> Season:
    """Close the season's results (``season_already_closed`` if they are)."""
    return _set(organizer, slug, season_id, reason, ClosureAction.CLOSE)


def season_reopen(*, organizer: Organizer | None, slug: str, season_id: int, reason: str) -> Season:
    """Reopen a closed season's results (``season_not_closed`` if they are open); a tournament
    that finished meanwhile is recorded by the reconciler's next pass."""
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
