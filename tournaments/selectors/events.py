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


def event_frame(event: TournamentEvent, audience: int | None) -> dict[str, Any]:
    """The frame ``audience`` gets for ``event``: the event, or a placeholder keeping its seq."""
    if not reaches(event, audience):
        return {"type": "event", "seq": event.seq, "kind": HIDDEN, "payload": None}
    return {"type": "event", "seq": event.seq, "kind": event.kind, "payload": event.payload}


def reaches(event: TournamentEvent, audience: int | None) -> bool:
    """A public event reaches everyone; a private one only its seat."""
    return event.audience is None or (audience is not None and event.audience == audience)


def events_after(*, tournament_id: int, after: int, audience: int | None) -> LogSlice:
    """The events after ``after`` that ``audience`` (a seat number; ``None``: spectator) may see.

    Events are released in seq order: the first one whose ``visible_at`` is still ahead holds
    back everything after it, so a paced match never shows its end before its reveals.
    """
    rows = TournamentEvent.objects.filter(tournament_id=tournament_id, seq__gt=after)
    now = timezone.now()
    sent: list[dict[str, Any]] = []
    last = after
    for event in rows.order_by("seq")[:BATCH]:
        if event.visible_at > now:
            return LogSlice(sent, last, event.visible_at)
        sent.append(event_frame(event, audience))
        last = event.seq
    more = len(sent) == BATCH or rows.filter(seq__gt=last).exists()
    return LogSlice(sent, last, now if more else None)
