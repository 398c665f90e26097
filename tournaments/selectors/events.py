"""The tournament's event log as one viewer may read it, in order, gapless and released on time.

Every viewer gets every ``seq``: an event it may not see comes as ``{"seq": N, "kind": "hidden"}``
with no payload, so a missing number always means a lost frame, never a secret.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from tournaments.models import TournamentEvent

BATCH = 500


@dataclass(frozen=True, slots=True)
class LogSlice:
    """Events to send now, the last seq they cover, and when to look again (``None``: on news)."""

    events: list[dict[str, Any]]
    last_seq: int
    next_due: datetime | None


HIDDEN = "hidden"


COLUMNS = ("seq", "kind", "payload", "audience", "visible_at")
"""What the stream reads of each event (plain rows: no model instances on the hot path)."""


def event_frame(
    seq: int, kind: str, payload: Any, event_audience: int | None, audience: int | None
) -> dict[str, Any]:
    """The frame ``audience`` gets for an event: the event, or a placeholder keeping its seq.
    A public event (``event_audience`` None) reaches everyone; a private one only its seat."""
    if event_audience is not None and event_audience != audience:
        return {"type": "event", "seq": seq, "kind": HIDDEN, "payload": None}
    return {"type": "event", "seq": seq, "kind": kind, "payload": payload}


def events_after(*, tournament_id: int, after: int, audience: int | None) -> LogSlice:
    """The events after ``after`` that ``audience`` (a seat number; ``None``: spectator) may see.

    Events are released in seq order: the first one whose ``visible_at`` is still ahead holds
    back everything after it, so a paced match never shows its end before its reveals. One
    query: a row past the batch says there is more.
    """
    rows = TournamentEvent.objects.filter(tournament_id=tournament_id, seq__gt=after)
    batch = list(rows.order_by("seq").values_list(*COLUMNS)[: BATCH + 1])
    now = timezone.now()
    sent: list[dict[str, Any]] = []
    last = after
    for seq, kind, payload, event_audience, visible_at in batch[:BATCH]:
        if visible_at > now:
            return LogSlice(sent, last, visible_at)
        sent.append(event_frame(seq, kind, payload, event_audience, audience))
        last = seq
    return LogSlice(sent, last, now if len(batch) > BATCH else None)
