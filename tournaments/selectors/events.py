"""The tournament's event log as one viewer may read it: in order, gapless, released on time.

Every viewer gets every ``seq``. An event it may not see comes as
``{"seq": N, "kind": "hidden"}``, with no payload. So a missing number always means a lost frame,
never a secret. An event is a ``TournamentEventView`` (``tournaments.log_shapes``). The live
stream gets it as the JSON text it sends (``event_text``), built around the stored payload.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import orjson
from django.db import connection

from infra.rows import column, converted, quote
from matches.enums import HIDDEN
from matches.observer import Viewer
from matches.release import clock, held, is_released
from tournaments.log_shapes import TournamentEventView
from tournaments.models import Status, Tournament, TournamentEvent
from tournaments.selectors.archive import LogRow, archived_log_rows
from tournaments.selectors.viewers import tournament_event_seq

BATCH = 500


@dataclass(frozen=True, slots=True)
class LogSlice:
    """Events to send now, the last seq they cover, and when to look again.

    ``next_due`` is ``None`` to look again on news. ``released`` holds each event's
    ``visible_at``, for the stream's lag.
    """

    events: list[Any]  # shapes (``events_after``) or their frames' JSON text (``…_texts_after``)
    last_seq: int
    next_due: datetime | None
    released: tuple[datetime, ...] = ()

    @property
    def more(self) -> bool:
        """The log held more than this batch (``next_due`` is now).

        A client catching up is still catching up on the next read.
        """
        return len(self.events) == BATCH and self.next_due is not None


def released_seq(tournament_id: int) -> int:
    """The last seq of the tournament's log that is released now.

    Every event up to it is out. It is the only bound of the log anyone is told. The stored count is
    never told. It holds paced events not yet out. ``not_found`` for an unknown tournament.
    """
    logged = tournament_event_seq(tournament_id)
    first_held = (
        TournamentEvent.objects.filter(held(), tournament_id=tournament_id)
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )
    return logged if first_held is None else first_held - 1


def released_seq_of(tournament: Tournament) -> int:
    """``released_seq`` of a tournament row already read.

    Its ``event_seq`` must be read with the state it stands on. A lobby's and a finished
    tournament's events are all out. So only a running or cancelled one costs a query.
    """
    if tournament.status in (Status.LOBBY, Status.FINISHED):
        return int(tournament.event_seq)
    first_held = (
        TournamentEvent.objects.filter(held(), tournament_id=tournament.pk)
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )
    if first_held is None:
        return int(tournament.event_seq)
    return min(tournament.event_seq, first_held - 1)


def event_view(
    seq: int, kind: str, payload: dict[str, object], audience: int | None, viewer: Viewer
) -> TournamentEventView:
    """The event as ``viewer`` may see it: the event, or a placeholder keeping its seq.

    ``Viewer.reaches`` decides whether the event's ``audience`` reaches the viewer.
    """
    if not viewer.reaches(audience):
        return TournamentEventView(seq=seq, kind=HIDDEN, payload=None)
    return TournamentEventView(seq=seq, kind=kind, payload=payload)


def event_text(seq: int, kind: str, payload: str, audience: int | None, viewer: Viewer) -> str:
    """``event_view`` as the stream's frame: ``{"type": "event", …}`` and the shape's keys.

    It wraps the payload's stored JSON text. That text is never parsed and dumped again. The stream
    sends every event to every socket.
    """
    if not viewer.reaches(audience):
        return f'{{"type":"event","seq":{seq},"kind":"{HIDDEN}","payload":null}}'
    return (
        f'{{"type":"event","seq":{seq},"kind":{orjson.dumps(kind).decode()},"payload":{payload}}}'
    )


def events_after(*, tournament_id: int, after: int, viewer: Viewer) -> LogSlice:
    """The events after ``after`` as ``viewer`` may see them.

    Events are released in seq order. The first one whose ``visible_at`` is still ahead holds back
    everything after it. So a paced match never shows its end before its reveals. It takes one
    query. A row past the batch says there is more.
    """
    return _slice(tournament_id, after, viewer, text=False)


def event_texts_after(*, tournament_id: int, after: int, viewer: Viewer) -> LogSlice:
    """``events_after`` with each frame as the live stream's JSON text to send."""
    return _slice(tournament_id, after, viewer, text=True)


def _slice(tournament_id: int, after: int, viewer: Viewer, *, text: bool) -> LogSlice:
    batch = _log_rows(tournament_id, after)
    now = clock()
    sent: list[Any] = []
    released: list[datetime] = []
    last = after
    for seq, kind, audience, visible_at, payload in batch[:BATCH]:
        if not is_released(visible_at, now=now):
            return LogSlice(sent, last, visible_at, tuple(released))
        if text:
            sent.append(event_text(seq, kind, payload, audience, viewer))
        else:
            sent.append(event_view(seq, kind, orjson.loads(payload), audience, viewer))
        released.append(visible_at)
        last = seq
    return LogSlice(sent, last, now if len(batch) > BATCH else None, tuple(released))


def _log_rows(tournament_id: int, after: int) -> list[LogRow]:
    """Up to ``BATCH + 1`` rows of the log after ``after``.

    The payload comes as its stored JSON text, ``visible_at`` as the field reads it. The SQL is
    built once, like the write path's.
    """
    with connection.cursor() as cursor:
        cursor.execute(_log_sql(), [tournament_id, after, BATCH + 1])
        found = cursor.fetchall()
    if not found:  # nothing new, or a finished tournament whose log was archived
        return archived_log_rows(tournament_id, after, BATCH + 1)
    return [(*converted(TournamentEvent, READ, row[:-1]), row[-1]) for row in found]


READ = ("seq", "kind", "audience", "visible_at")
"""The columns the stream reads and converts, before the payload (left as its JSON text)."""


@cache
def _log_sql() -> str:
    table = quote(TournamentEvent._meta.db_table)
    cols = ", ".join(f"t.{column(TournamentEvent, name)}" for name in (*READ, "payload"))
    tournament, seq = column(TournamentEvent, "tournament"), column(TournamentEvent, "seq")
    return (
        f"SELECT {cols} FROM {table} t WHERE t.{tournament} = %s AND t.{seq} > %s "
        f"ORDER BY t.{seq} LIMIT %s"
    )
