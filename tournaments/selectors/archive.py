"""A tournament's event log, read back from its archive (``TournamentEventArchive``).

Rows come in the shape the log's readers take from the live table:
``(seq, kind, audience, visible_at, payload JSON)``.
"""

from __future__ import annotations

from datetime import datetime

import orjson

from matches.archive import unpack
from tournaments.models import TournamentEventArchive

LogRow = tuple[int, str, int | None, datetime, str]
"""A log row as the stream reads it: seq, kind, audience, ``visible_at`` and the payload's JSON
text."""


def archived_log_rows(tournament_id: int, after: int, limit: int) -> list[LogRow]:
    """Up to ``limit`` archived events after ``after``. Empty when the log is not archived."""
    blob = (
        TournamentEventArchive.objects.filter(pk=tournament_id)
        .values_list("events", flat=True)
        .first()
    )
    if blob is None:
        return []
    rows = [row for row in unpack(blob) if row[0] > after][:limit]
    return [
        (seq, kind, audience, datetime.fromisoformat(at), orjson.dumps(payload).decode())
        for seq, kind, audience, at, payload in rows
    ]
