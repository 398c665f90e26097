"""Publishing tournament events: append to the log in the caller's transaction, push on commit.

The log is the source of truth. The channel layer only carries a nudge with the event. A client that
missed one resumes from the log with ``after=N``. The layer may drop messages in bursts
(docs/architecture.md).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from infra import layer, observe
from infra.bulk import append_rows
from tournaments.models import LOG_KINDS, Status, Tournament, TournamentEvent

log = logging.getLogger(__name__)
KNOWN = frozenset(LOG_KINDS)


def group_name(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def publish(
    tournament: Tournament,
    kind: str,
    payload: dict[str, object],
    *,
    audience: int | None = None,
    visible_at: datetime | None = None,
) -> None:
    """Append an event. The caller holds the tournament lock. So ``seq`` has no gaps."""
    publish_many(tournament, [(kind, payload, audience, visible_at or timezone.now())])


def publish_seed(tournament: Tournament) -> None:
    """Open the seed's commitment. The tournament has ended: finished or cancelled."""
    publish(
        tournament,
        "seed_revealed",
        {
            "seed": str(tournament.seed),  # 63 bits: JSON numbers stop at 2^53 in JavaScript
            "nonce": tournament.seed_nonce,
            "commitment": tournament.commitment,
        },
    )


def _logged(tournament: Tournament) -> None:
    """The log grew.

    Under ``locked_tournament`` the counter is saved once, with the version. Live streams are nudged
    once after the commit (``nudge_if_grew``). Otherwise a caller holding the row's lock saves it at
    once and nudges after its commit.
    """
    if not tournament.seq_saved_by_lock:
        tournament.save(update_fields=["event_seq"])
        nudge_on_commit(tournament)


def nudge_on_commit(tournament: Tournament) -> None:
    """Once the transaction commits, tell live streams the log now ends at ``event_seq``."""
    tournament_id, seq = tournament.pk, tournament.event_seq
    transaction.on_commit(lambda: _nudge(tournament_id, seq))


def nudge_if_grew(tournament: Tournament, logged: int) -> None:
    """Tell live streams the log grew past ``logged``, if it did. Run after the commit."""
    if tournament.event_seq != logged:
        _nudge(tournament.pk, tournament.event_seq)


def _nudge(tournament_id: int, seq: int) -> None:
    """Tell live streams the log grew up to ``seq``. They read the events themselves."""
    try:
        layer.group_send(group_name(tournament_id), {"type": "log.grew", "seq": seq})
    except Exception:  # a lost nudge costs latency, never data: streams re-read the log
        log.warning("Could not nudge tournament %s streams", tournament_id, exc_info=True)


def log_tail(tournament: Tournament) -> datetime | None:
    """When the log's last event is released, read once per instance. ``None``: an empty log.

    It serves the release clock's one rule (docs/architecture.md, "One release clock").
    ``visible_at`` never decreases along ``seq``. So an event is public exactly when
    ``visible_at <= now``. The stream's seq order is release order.
    """
    if tournament.log_tail_at is None and tournament.event_seq and _may_hold(tournament):
        tournament.log_tail_at = (
            TournamentEvent.objects.filter(tournament_id=tournament.pk)
            .order_by("-seq")
            .values_list("visible_at", flat=True)
            .first()
        )
    return tournament.log_tail_at


def _may_hold(tournament: Tournament) -> bool:
    """Whether the log may hold events not yet out, so its last one must be read.

    Unpaced, every event is logged for the instant it is written. In the lobby and a Deck Phase,
    every match has been released. That happens only once its last instant has passed.
    """
    if tournament.status in (Status.LOBBY, Status.DECK):
        return False
    return float(getattr(settings, "MATCH_EVENT_PACE_SECONDS", 0.0)) > 0


def release_floor(tournament: Tournament, at: datetime) -> datetime:
    """The earliest instant an event appended now for ``at`` can be released.

    It is not before any event already in the log. An event never overtakes one logged before it.
    """
    tail = log_tail(tournament)
    return at if tail is None or tail <= at else tail


def publish_many(
    tournament: Tournament, items: list[tuple[str, dict[str, object], int | None, datetime]]
) -> None:
    """Append several events ``(kind, payload, audience, visible_at)`` in one write.

    An event's ``visible_at`` is raised to the release instant of the event before it. So the log is
    released in seq order, exactly as its instants say (``release_floor``).
    """
    if not items:
        return
    unknown = {item[0] for item in items} - KNOWN
    if unknown:
        raise ValueError(f"not a kind of the log (tournaments.models.LOG_KINDS): {unknown}")
    items = _monotone(tournament, items)
    first = tournament.event_seq + 1
    tournament_id = tournament.pk
    append_rows(
        TournamentEvent,
        [
            {
                "tournament_id": tournament_id,
                "seq": first + index,
                "kind": kind,
                "payload": payload,
                "audience": audience,
                "visible_at": visible_at,
            }
            for index, (kind, payload, audience, visible_at) in enumerate(items)
        ],
    )
    tournament.event_seq += len(items)
    tournament.log_tail_at = items[-1][3]
    _logged(tournament)
    observe.tournament_logged(tournament_id, [item[0] for item in items])


def _monotone(
    tournament: Tournament, items: list[tuple[str, dict[str, object], int | None, datetime]]
) -> list[tuple[str, dict[str, object], int | None, datetime]]:
    floor = release_floor(tournament, items[0][3])
    raised = []
    for kind, payload, audience, visible_at in items:
        floor = max(floor, visible_at)
        raised.append((kind, payload, audience, floor))
    return raised
