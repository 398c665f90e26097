"""Retention of finished tournaments' event logs.

Each log, and its matches' events, is packed into one compressed blob (``TournamentEventArchive``,
``MatchEventArchive``). Its rows are deleted. Results, standings, trophies and the matches' rows
stay as they are. Streams, REST and GraphQL read the log from the archive. Replays and
``verify/`` read the matches' events from theirs. So a client sees the same events, as JSON: the
text may differ in spacing.

Run by ``manage.py archive_events --older-than DAYS``. Also by the periodic task
``tournaments.retention.archive_events`` (``EVENT_ARCHIVE_DAYS``).

Tournaments go in batches of ``BATCH``, one transaction each. On PostgreSQL the database writes
each log's JSON itself (``json_agg``). The archives go in by ``COPY``, the rows out by one
``DELETE`` a table. So the cost is per batch, not per tournament or per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from infra.bulk import append_rows
from matches.archive import match_events_archive, pack, pack_json
from tournaments.models import Status, Tournament, TournamentEvent, TournamentEventArchive

DONE = (Status.FINISHED, Status.CANCELLED)
BATCH = 100

LOGS_SQL = """
SELECT tournament_id, count(*),
       json_agg(json_build_array(seq, kind, audience, visible_at, payload) ORDER BY seq)::text
FROM tournaments_tournamentevent WHERE tournament_id = ANY(%s)
GROUP BY tournament_id
"""


@dataclass(frozen=True)
class Archived:
    tournaments: int
    log_rows: int
    match_event_rows: int

    def __add__(self, other: Archived) -> Archived:
        return Archived(
            self.tournaments + other.tournaments,
            self.log_rows + other.log_rows,
            self.match_event_rows + other.match_event_rows,
        )


def tournaments_to_archive(*, older_than_days: int, now: datetime) -> list[int]:
    """Finished or cancelled tournaments untouched for ``older_than_days``, not archived yet."""
    since = now - timedelta(days=older_than_days)
    done = Tournament.objects.filter(status__in=DONE, updated_at__lt=since)
    return list(done.filter(event_archive__isnull=True).order_by("pk").values_list("pk", flat=True))


def _packed_logs(tournament_ids: Sequence[int]) -> dict[int, tuple[int, bytes]]:
    """``{tournament id: (events, blob)}``.

    Each log is a list of ``[seq, kind, audience, visible_at, payload]`` in seq order.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(LOGS_SQL, [list(tournament_ids)])
            return {tid: (n, pack_json(text.encode())) for tid, n, text in cursor.fetchall()}
    rows: dict[int, list[Any]] = {tid: [] for tid in tournament_ids}
    log = TournamentEvent.objects.filter(tournament_id__in=tournament_ids)
    for tid, *row in log.order_by("tournament_id", "seq").values_list(
        "tournament_id", "seq", "kind", "audience", "visible_at", "payload"
    ):
        rows[tid].append([row[0], row[1], row[2], row[3].isoformat(), row[4]])
    return {tid: (len(events), pack(events)) for tid, events in rows.items() if events}


def tournaments_archive(*, tournament_ids: Sequence[int]) -> Archived:
    """Archive these tournaments' logs and their matches' events.

    Skip any not ended or already archived. It is one transaction. Readers always see the rows or
    the archive.
    """
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(of=("self",)).order_by("pk")
        due = locked.filter(pk__in=tournament_ids, status__in=DONE, event_archive__isnull=True)
        ids = list(due.values_list("pk", flat=True))
        if not ids:
            return Archived(0, 0, 0)
        now = timezone.now()
        logs = _packed_logs(ids)
        empty = (0, pack([]))  # a tournament cancelled before its first event
        archives = [(tid, *logs.get(tid, empty)) for tid in ids]
        append_rows(
            TournamentEventArchive,
            [
                {"tournament_id": tid, "events": blob, "count": count, "archived_at": now}
                for tid, count, blob in archives
            ],
        )
        removed, _ = TournamentEvent.objects.filter(tournament_id__in=ids).delete()
        match_rows = match_events_archive(tournament_ids=ids, now=now)
    return Archived(len(ids), removed, match_rows)


def archive_finished(*, older_than_days: int, batch: int = BATCH) -> Archived:
    """Archive every tournament ``tournaments_to_archive`` names, ``batch`` per transaction."""
    due = tournaments_to_archive(older_than_days=older_than_days, now=timezone.now())
    total = Archived(0, 0, 0)
    for start in range(0, len(due), batch):
        total += tournaments_archive(tournament_ids=due[start : start + batch])
    return total
