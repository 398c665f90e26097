"""A league organizer's season writes (docs/leagues.md, *Management*).

An organizer edits a season: its name, dates and policies. The scoring table can change until its
first result. Its tournaments' options can change until one is opened. An organizer may archive a
season, and delete one that never had a tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.errors import ApplicationError, ConflictError, NotFoundError
from leagues.models import League, Season
from leagues.rules.scoring import SEASON_OPTIONS, LeagueRuleError, ScoringTable, check_scoring
from leagues.services import schedules
from leagues.services.leagues import (
    check_dates,
    check_tournament_options,
    require_open,
    require_organizer,
    require_season_in,
)
from tournaments.models import Status
from tournaments.selectors.viewers import Organizer

SEASON_FIELDS = ("name", "starts_on", "ends_on", "bots_allowed", "advice_allowed")
# What a closed season still takes: its name and archiving change no result.
RESULTLESS = frozenset({"name", "archived"})


def season_update(
    *, organizer: Organizer | None, slug: str, season_id: int, changes: Mapping[str, object]
) -> Season:
    """Edit a season, or archive it or bring it back.

    Its name, dates and policies may change. New policies hold for tournaments opened from now on.
    Its scoring may change until a result is recorded (``season_has_results``). Its options may
    change until a tournament is opened (``season_has_tournaments``).
    """
    require_organizer(organizer, require_season_in(slug, season_id).league)
    with transaction.atomic():
        season = _locked(season_id)
        if set(changes) - RESULTLESS:
            require_open(season)
        starts = changes.get("starts_on", season.starts_on)
        ends = changes.get("ends_on", season.ends_on)
        assert isinstance(starts, date | None) and isinstance(ends, date | None)  # a valid input
        check_dates(starts, ends)
        schedules.require_schedules_within(season, starts, ends)
        if "scoring" in changes:
            scoring = changes["scoring"]
            assert isinstance(scoring, Mapping)  # a valid ``ScoringChangeInput``
            season.scoring = _new_scoring(season, scoring)
        _set_options(season, {k: v for k, v in changes.items() if k in SEASON_OPTIONS})
        for name in SEASON_FIELDS:
            if name in changes:
                setattr(season, name, changes[name])
        if "archived" in changes:
            season.archived_at = timezone.now() if changes["archived"] else None
        season.save()
    return season


def _locked(season_id: int) -> Season:
    """The season's row, locked after its league's, the order a close takes them in.

    The league's lock is the recording's. So a result being recorded is seen here, or is recorded
    with the new table. The season's lock is the schedules' and the openings'. So a start or a
    tournament on its way is seen here. Otherwise it is checked against the new dates and options.
    """
    League.objects.select_for_update().filter(seasons=season_id).first()
    season = Season.objects.select_for_update().filter(pk=season_id).first()
    if season is None:  # deleted meanwhile
        raise NotFoundError("unknown_season", _("No such season."))
    return season


def _new_scoring(season: Season, given: Mapping[str, object]) -> ScoringTable:
    """The table with the given keys replaced, checked as at creation."""
    if season.links.filter(recorded_seq__isnull=False).exists():
        raise ConflictError(
            "season_has_results",
            _("This season has recorded results: its scoring no longer changes."),
            {"season": season.pk},
        )
    try:
        return check_scoring({**season.scoring, **given})
    except LeagueRuleError as error:
        raise ApplicationError(error.code, _(error.message), error.details) from error


def _set_options(season: Season, given: Mapping[str, object]) -> None:
    """The season's tournament options, while no tournament uses them (a cancelled one aside).

    Each tournament keeps the options it was opened with.
    """
    if not given:
        return
    opened = season.links.exclude(tournament__status=Status.CANCELLED)
    tournaments = sorted(opened.values_list("tournament_id", flat=True))
    if tournaments:
        raise ConflictError(
            "season_has_tournaments",
            _("Tournaments were opened with this season's options: cancel them first."),
            {"season": season.pk, "tournaments": tournaments},
        )
    options = {name: getattr(season, name) for name in SEASON_OPTIONS}
    check_tournament_options({**options, **given})
    for name, value in given.items():
        setattr(season, name, value)


def season_delete(*, organizer: Organizer | None, slug: str, season_id: int) -> None:
    """Delete a season no tournament ever joined and no correction names.

    Otherwise ``season_in_use``: archive it instead. So a correction's audit trail stays.
    """
    require_organizer(organizer, require_season_in(slug, season_id).league)
    with transaction.atomic():
        season = _locked(season_id)
        require_open(season)
        tournaments = sorted(season.links.values_list("tournament_id", flat=True))
        if tournaments or season.corrections.exists():
            raise ConflictError(
                "season_in_use",
                _("Tournaments joined this season (or a correction names it): archive it instead."),
                {"season": season.pk, "tournaments": tournaments},
            )
        season.delete()
