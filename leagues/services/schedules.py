"""Scheduled starts with check-in, and the league's calendar.

An organizer schedules a league tournament still in its lobby, on one of its season's days. It
starts at ``starts_at``. Its seats check in during the ``checkin_minutes`` before.

At ``starts_at`` the tournament starts by itself when ready. Every seat must be taken and every
player's seat checked in. Bots are always ready. An open seat always cancels it.

A player who did not check in is a no-show. A no-show cancels the tournament with the reason. Every
seat reads the reason in its ``tournament_cancelled`` event. The ``bot`` no-show policy instead
leaves the seat to a bot of the schedule's strength. Then each no-show member gets a ``no_show``
correction, and the tournament starts.

The start is queued for its time when scheduled. The reconciler queues it again while it is owed
(``starts_owed``). The schedule's rows say what is owed; a queued task is only a nudge. So a lost
message or a dead worker delays it by one reconcile period at most.

The start settles in one transaction under the schedule's row lock. Bots, corrections, the start and
the outcome commit together or not at all. So a crash half-way leaves it owed. The next attempt does
it whole.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import ApplicationError, ConflictError, NotFoundError
from infra.taskqueue import enqueue_named
from leagues.models import (
    CheckIn,
    Correction,
    CorrectionKind,
    LeagueTournament,
    NoShow,
    Schedule,
    ScheduleOutcome,
    Season,
)
from leagues.rules.scoring import in_season
from leagues.services.leagues import league_of, require_open, require_organizer
from leagues.shapes import ScheduleView, TournamentScheduleView, YourCheckIn
from tournaments.models import Seat, SeatKind, Status, Tournament
from tournaments.rules.bots import DEFAULT_LEVEL
from tournaments.selectors.owed import Owed
from tournaments.selectors.viewers import Organizer, require_seat
from tournaments.services.lobby import (
    Staff,
    free_numbers,
    seat_replace_by_bot,
    tournament_cancel,
)
from tournaments.services.start import tournament_start

SCHEDULED_START = "leagues.tasks.scheduled_start"
SCHEDULER = Staff(user_id=0)  # the league's clock acts as staff would: start or cancel, with why
NO_SHOW_REASON = "did not check in"  # a no-show correction's reason (data, not a message)


def schedule_set(
    *,
    organizer: Organizer | None,
    slug: str,
    tournament_id: int,
    starts_at: datetime,
    checkin_minutes: int,
    no_show: str = NoShow.CANCEL,
    bot_level: str = DEFAULT_LEVEL,
) -> Schedule:
    """Schedule or move a lobby's start, with its no-show policy.

    Refusals: ``schedule_in_past``, ``schedule_outside_season``, ``season_archived``,
    ``not_in_lobby``, ``bots_not_allowed``.
    """
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
        # The season's row lock: an edit of its dates (``managing.season_update``) waits for
        # this schedule and then sees it, so no start is left outside the season's new days.
        season = Season.objects.select_for_update().get(pk=link.season_id)
        _require_schedulable(link.tournament, season, starts_at, no_show)
        opens = starts_at - timedelta(minutes=checkin_minutes)
        policy = {"no_show": no_show, "bot_level": bot_level}
        schedule, _made = Schedule.objects.update_or_create(
            link=link, defaults={"starts_at": starts_at, "checkin_opens_at": opens, **policy}
        )
        wait = (starts_at - now).total_seconds()
        transaction.on_commit(lambda: enqueue_named(SCHEDULED_START, tournament_id, countdown=wait))
    return schedule


def schedule_delete(*, organizer: Organizer | None, slug: str, tournament_id: int) -> None:
    """Delete a start before its time. Its check-ins go with it; the lobby stays open.

    Refusals: ``not_scheduled``, ``schedule_settled`` from the start time on, ``season_closed``.
    """
    require_organizer(organizer, league_of(slug))
    with transaction.atomic():
        # The locks ``schedule_set`` takes, in its order (the link, the season: a close waits
        # or is seen), then the start's own (``scheduled_start``): it settled before this, or
        # finds nothing to start after it.
        link = (
            LeagueTournament.objects.select_for_update()
            .filter(tournament_id=tournament_id, season__league__slug=slug)
            .first()
        )
        if link is None:
            raise NotFoundError("not_league_tournament", _("This league has no such tournament."))
        season = Season.objects.select_for_update().get(pk=link.season_id)
        schedule = Schedule.objects.select_for_update().filter(link=link).first()
        if schedule is None:
            raise NotFoundError("not_scheduled", _("This tournament has no scheduled start."))
        if schedule.outcome or timezone.now() >= schedule.starts_at:
            raise ConflictError(
                "schedule_settled",
                _("This start's time has come: it is no longer deleted."),
                {"starts_at": schedule.starts_at.isoformat(), "outcome": schedule.outcome or None},
            )
        require_open(season)
        schedule.delete()


def _require_schedulable(
    tournament: Tournament, season: Season, starts_at: datetime, no_show: str
) -> None:
    if tournament.status != Status.LOBBY:
        raise ConflictError("not_in_lobby", _("Only a tournament in its lobby is scheduled."))
    if season.archived_at is not None:
        raise ConflictError("season_archived", _("This season is archived."))
    require_open(season)
    day = timezone.localtime(starts_at).date()
    if not in_season(day, season.starts_on, season.ends_on):
        raise ApplicationError(
            "schedule_outside_season",
            _("A tournament starts on one of its season's days."),
            {"day": day.isoformat(), **_dates(season.starts_on, season.ends_on)},
        )
    if no_show == NoShow.BOT and not tournament.bots_allowed:
        raise ConflictError("bots_not_allowed", _("This tournament's league season has no bots."))


def _dates(starts_on: date | None, ends_on: date | None) -> dict[str, str | None]:
    return {
        "starts_on": starts_on.isoformat() if starts_on else None,
        "ends_on": ends_on.isoformat() if ends_on else None,
    }


def require_schedules_within(season: Season, starts_on: date | None, ends_on: date | None) -> None:
    """Refuse new dates of ``season`` that would leave a start to come outside them.

    The refusal is ``schedules_outside_season``. ``details.tournaments`` names each such tournament
    with its start. The caller holds the season's row lock.
    """
    pending = Schedule.objects.filter(link__season=season, outcome=ScheduleOutcome.PENDING)
    outside = [
        {"tournament": tid, "starts_at": at.isoformat()}
        for tid, at in pending.order_by("starts_at").values_list("link__tournament_id", "starts_at")
        if not in_season(timezone.localtime(at).date(), starts_on, ends_on)
    ]
    if outside:
        raise ConflictError(
            "schedules_outside_season",
            _("Scheduled starts would fall outside the season's new dates: move them first."),
            {"tournaments": outside, **_dates(starts_on, ends_on)},
        )


def seat_checkin(*, tournament_id: int, seat: Seat | None) -> CheckIn:
    """The calling seat checks in. Checking in again keeps the same check-in.

    Refusals: ``not_scheduled``, ``checkin_not_open``, ``checkin_closed``.
    """
    with transaction.atomic():
        # The schedule's row lock: a check-in is either seen by the start (which holds the
        # lock while it replaces or counts the absent) or comes after it and is refused.
        schedule = (
            Schedule.objects.select_for_update()
            .filter(link__tournament_id=tournament_id)
            .select_related("link__tournament")
            .first()
        )
        return _check_in(schedule, seat)


def _check_in(schedule: Schedule | None, seat: Seat | None) -> CheckIn:
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
    """Start the tournament, or cancel it with the reason, once, at its time.

    Returns the outcome. It is ``""`` before the time, or when there is no schedule.
    """
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
    replaced = ""
    if missing and schedule.no_show == NoShow.BOT and not free_numbers(tournament):
        replaced, missing = _replace_no_shows(schedule), ""
    if missing:
        tournament_cancel(tournament_id=tournament.pk, seat=SCHEDULER, reason=missing)
        return ScheduleOutcome.CANCELLED, missing
    tournament_start(tournament_id=tournament.pk, seat=SCHEDULER)
    return ScheduleOutcome.STARTED, replaced


def _absent(schedule: Schedule) -> list[Seat]:
    """The players' seats that did not check in, by number."""
    players = schedule.link.tournament.seats.filter(kind=SeatKind.HUMAN)
    absent = players.exclude(pk__in=schedule.checkins.values("seat_id"))
    return list(absent.select_related("member_link__member").order_by("number"))


def _not_ready(schedule: Schedule) -> str:
    """Why the tournament cannot start at its time, in words. ``""`` when it can."""
    open_seats = free_numbers(schedule.link.tournament)
    if open_seats:
        return f"seats_open: seats {', '.join(str(n + 1) for n in open_seats)} not taken"
    numbers = [seat.number for seat in _absent(schedule)]
    if numbers:
        return f"checkin_incomplete: seats {', '.join(str(n + 1) for n in numbers)} not checked in"
    return ""


def _replace_no_shows(schedule: Schedule) -> str:
    """Give each absent player's seat to a bot, and return the schedule's new reason.

    Each absent member gets a ``no_show`` correction. It names the member, so it shows in its
    history.
    """
    link = schedule.link
    absent = _absent(schedule)
    for seat in absent:
        member_link = getattr(seat, "member_link", None)  # read before the seat goes
        seat_replace_by_bot(
            tournament_id=link.tournament_id,
            seat=SCHEDULER,
            number=seat.number,
            level=schedule.bot_level,
        )
        if member_link is not None:
            Correction.objects.create(
                league_id=link.season.league_id,
                season_id=link.season_id,
                link=link,
                member=member_link.member,
                kind=CorrectionKind.NO_SHOW,
                reason=NO_SHOW_REASON,
            )
    numbers = ", ".join(str(seat.number + 1) for seat in absent)
    return f"no_show: seats {numbers} played by {schedule.bot_level} bots"


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
        no_show=schedule.no_show,
        bot_level=schedule.bot_level,
    )


def calendar(slug: str) -> list[ScheduleView]:
    """The league's scheduled tournaments by start time: its calendar."""
    league = league_of(slug)
    found = Schedule.objects.filter(link__season__league=league).select_related("link__tournament")
    return [schedule_view(s) for s in found.order_by("starts_at", "pk")]


def tournament_schedule(*, tournament_id: int, seat: Seat | None) -> TournamentScheduleView:
    """A tournament's scheduled start as its lobby reads it; else ``not_scheduled``.

    It holds the calendar's view and its league's ``slug``. ``you`` is the calling seat of this
    tournament, numbered from 1, and whether it checked in. ``you`` is ``None`` for anyone else.
    """
    schedule = (
        Schedule.objects.filter(link__tournament_id=tournament_id)
        .select_related("link__tournament", "link__season__league")
        .first()
    )
    if schedule is None:
        raise NotFoundError("not_scheduled", _("This tournament has no scheduled start."))
    view = schedule_view(schedule)
    you = None
    if seat is not None and seat.tournament_id == tournament_id:
        number = seat.number + 1
        you = YourCheckIn(seat=number, checked_in=number in view.checked_in)
    league = schedule.link.season.league.slug
    return row(TournamentScheduleView, view, league=league, you=you)
