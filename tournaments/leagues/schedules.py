"""Scheduled starts with check-in, and the league's calendar.

An organizer schedules a league tournament still in its lobby: it starts at ``starts_at`` and its
seats check in during the ``checkin_minutes`` before. At ``starts_at`` the tournament starts by
itself when every seat is taken and every player's seat checked in (bots are always ready);
otherwise it is cancelled with the reason, which every seat reads in its ``tournament_cancelled``
event. The start is queued for its time when scheduled, and the reconciler queues it again while
it is owed (``starts_owed``: the schedule's rows say what is owed, a queued task is a nudge), so a
lost message or a dead worker delays it by one reconcile period at most.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApplicationError, ConflictError, NotFoundError
from config.taskqueue import enqueue_named
from tournaments.leagues.models import (
    CheckIn,
    LeagueTournament,
    Schedule,
    ScheduleOutcome,
)
from tournaments.leagues.services import league_of, require_organizer
from tournaments.leagues.shapes import ScheduleView
from tournaments.models import Seat, SeatKind, Status
from tournaments.selectors.owed import Owed
from tournaments.selectors.viewers import Organizer, require_seat
from tournaments.services.lobby import Staff, free_numbers, tournament_cancel
from tournaments.services.start import tournament_start

SCHEDULED_START = "tournaments.leagues.tasks.scheduled_start"
SCHEDULER = Staff(user_id=0)  # the league's clock acts as staff would: start or cancel, with why


def schedule_set(
    *,
    organizer: Organizer | None,
    slug: str,
    tournament_id: int,
    starts_at: datetime,
    checkin_minutes: int,
) -> Schedule:
    """Schedule (or move) a lobby's start; ``schedule_in_past``, ``not_in_lobby``."""
    league = league_of(slug)
    require_organizer(organizer, league)
    now = timezone.now()
    if starts_at <= now:
        raise ApplicationError("schedule_in_past", _("A scheduled start must be in the future."))
    with transaction.atomic():
        link = (
            LeagueTournament.objects.select_for_update()
            .select_related("tournament")
            .filter(tournament_id=tournament_id, season__league=league)
            .first()
        )
        if link is None:
            raise NotFoundError("not_league_tournament", _("This league has no such tournament."))
        if link.tournament.status != Status.LOBBY:
            raise ConflictError("not_in_lobby", _("Only a tournament in its lobby is scheduled."))
        opens = starts_at - timedelta(minutes=checkin_minutes)
        schedule, _made = Schedule.objects.update_or_create(
            link=link, defaults={"starts_at": starts_at, "checkin_opens_at": opens}
        )
        wait = (starts_at - now).total_seconds()
        transaction.on_commit(lambda: enqueue_named(SCHEDULED_START, tournament_id, countdown=wait))
    return schedule


def seat_checkin(*, tournament_id: int, seat: Seat | None) -> CheckIn:
    """The calling seat checks in (again: the same check-in); ``not_scheduled``,
    ``checkin_not_open``, ``checkin_closed``."""
    schedule = (
        Schedule.objects.filter(link__tournament_id=tournament_id)
        .select_related("link__tournament")
        .first()
    )
    if schedule is not None:
        require_seat(seat, schedule.link.tournament)
    if schedule is None or seat is None:
        raise ConflictError("not_scheduled", _("This tournament has no scheduled start."))
    now = timezone.now()
    if now < schedule.checkin_opens_at:
        raise ConflictError(
            "checkin_not_open",
            _("Check-in has not opened yet."),
            {"opens_at": schedule.checkin_opens_at.isoformat()},
        )
    if schedule.outcome or now >= schedule.starts_at:
        raise ConflictError("checkin_closed", _("Check-in is over: the start time has come."))
    checkin, _made = CheckIn.objects.get_or_create(
        seat=seat, defaults={"schedule": schedule, "at": now}
    )
    return checkin


def starts_owed(*, now: datetime) -> list[Owed]:
    """Scheduled starts whose time has come and that are not settled (``RECONCILE_SOURCES``)."""
    due = Schedule.objects.filter(outcome=ScheduleOutcome.PENDING, starts_at__lte=now)
    return [
        Owed(f"league_start:{tid}", None, at, SCHEDULED_START, (tid,))
        for tid, at in due.values_list("link__tournament_id", "starts_at")
    ]


def scheduled_start(*, tournament_id: int) -> str:
    """Start the tournament or cancel it with the reason, once, at its time; the outcome
    (``""`` while it is not yet time or for no schedule)."""
    with transaction.atomic():
        # Claims the start: a second task (the reconciler's nudge) waits, then finds it settled.
        schedule = (
            Schedule.objects.select_for_update()
            .select_related("link__tournament")
            .filter(link__tournament_id=tournament_id)
            .first()
        )
        now = timezone.now()
        if schedule is None or schedule.outcome or now < schedule.starts_at:
            return schedule.outcome if schedule else ""
        schedule.outcome, schedule.reason = _settle(schedule)
        schedule.settled_at = now
        schedule.save(update_fields=["outcome", "reason", "settled_at"])
    return schedule.outcome


def _settle(schedule: Schedule) -> tuple[str, str]:
    tournament = schedule.link.tournament
    if tournament.status != Status.LOBBY:
        return ScheduleOutcome.SKIPPED, ""
    missing = _not_ready(schedule)
    if missing:
        tournament_cancel(tournament_id=tournament.pk, seat=SCHEDULER, reason=missing)
        return ScheduleOutcome.CANCELLED, missing
    tournament_start(tournament_id=tournament.pk, seat=SCHEDULER)
    return ScheduleOutcome.STARTED, ""


def _not_ready(schedule: Schedule) -> str:
    """Why the tournament cannot start at its time, in words ("" when it can)."""
    tournament = schedule.link.tournament
    open_seats = free_numbers(tournament)
    if open_seats:
        return f"seats_open: seats {', '.join(str(n + 1) for n in open_seats)} not taken"
    players = tournament.seats.filter(kind=SeatKind.HUMAN)
    absent = players.exclude(pk__in=schedule.checkins.values("seat_id"))
    numbers = sorted(absent.values_list("number", flat=True))
    if numbers:
        return f"checkin_incomplete: seats {', '.join(str(n + 1) for n in numbers)} not checked in"
    return ""


def schedule_view(schedule: Schedule) -> ScheduleView:
    """A scheduled start as anyone reads it."""
    link = schedule.link
    return ScheduleView(
        tournament=link.tournament_id,
        season=link.season_id,
        status=link.tournament.status,
        starts_at=schedule.starts_at,
        checkin_opens_at=schedule.checkin_opens_at,
        checked_in=sorted(n + 1 for n in schedule.checkins.values_list("seat__number", flat=True)),
        outcome=schedule.outcome or None,
        reason=schedule.reason,
    )


def calendar(slug: str) -> list[ScheduleView]:
    """The league's scheduled tournaments by start time: its calendar."""
    league = league_of(slug)
    found = Schedule.objects.filter(link__season__league=league).select_related("link__tournament")
    return [schedule_view(s) for s in found.order_by("starts_at", "pk")]
