"""Retention of finished tournaments' event logs: each log, and its matches' events, packed into
one compressed blob (``TournamentEventArchive``, ``MatchEventArchive``) and its rows deleted.

Results, standings, trophies and the matches' rows stay as they are; streams, REST and GraphQL
read the log from the archive, and replays and ``verify/`` read the matches' events from theirs,
so a client sees the same events (as JSON: the text may differ in spacing). Run by
``manage.py archive_events --older-than DAYS`` and by the periodic task
``tournaments.retention.archive_events`` (``EVENT_ARCHIVE_DAYS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from matches.archive import match_events_archive, pack
from tournaments.models import Status, Tournament, TournamentEvent, TournamentEventArchive

DONE = (Status.FINISHED, Status.CANCELLED)


@dataclass(frozen=True)
class Archived:
    tournaments: int
    log_rows: int
    match_event_rows: int


def tournaments_to_archive(*, older_than_days: int, now: datetime) -> list[int]:
    """Finished or cancelled tournaments untouched for ``older_than_days``, not archived yet."""
    since = now - timedelta(days=older_than_days)
    done = Tournament.objects.filter(status__in=DONE, updated_at__lt=since)
    return list(done.filter(event_archive__isnull=True).order_by("pk").values_list("pk", flat=True))


def tournament_archive(*, tournament_id: int) -> Archived:
    """Archive one finished tournament's log and its matches' events (nothing if it is not
    finished or already archived). One transaction: readers see the rows or the archive."""
    with transaction.atomic():
        done = Tournament.objects.select_for_update()
        tournament = done.filter(pk=tournament_id, status__in=DONE).first()
        if tournament is None or TournamentEventArchive.objects.filter(pk=tournament_id).exists():
            return Archived(0, 0, 0)
        log = TournamentEvent.objects.filter(tournament_id=tournament_id).order_by("seq")
        rows = [
            [seq, kind, audience, at.isoformat(), payload]
            for seq, kind, audience, at, payload in log.values_list(
                "seq", "kind", "audience", "visible_at", "payload"
            )
        ]
        TournamentEventArchive.objects.create(
            tournament_id=tournament_id, events=pack(rows), count=len(rows)
        )
        removed, _ = log.delete()
        match_ids = list(tournament.matches.values_list("pk", flat=True))
        match_rows = match_events_archive(match_ids=match_ids)
    return Archived(1, removed, match_rows)


def archive_finished(*, older_than_days: int) -> Archived:
    """Archive every tournament ``tournaments_to_archive`` names, one transaction each."""
    total = Archived(0, 0, 0)
    for tournament_id in tournaments_to_archive(
        older_than_days=older_than_days, now=timezone.now()
    ):
        done = tournament_archive(tournament_id=tournament_id)
        total = Archived(
            total.tournaments + done.tournaments,
            total.log_rows + done.log_rows,
            total.match_event_rows + done.match_event_rows,
        )
    return total
