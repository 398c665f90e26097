"""The reconciler: every few seconds, drive whatever the rows say is owed and nobody is doing.

What is owed is derived from the rows (``tournaments.selectors.owed``). This module decides what to
do about it.

Work the clock does in place is done now (``clock.sweep``). That is passed deadlines, answer
timeouts and due releases.

Work done by a task is queued again when no task for it is *in flight*. That is bot Deck Phases,
scheduled matches and webhook deliveries. A task is in flight unless the work has been owed, and no
task queued for it, for ``RECONCILE_REQUEUE_SECONDS``. The time a task was queued is the owed row's
own time: the change that made the work queued its task on commit. Once the reconciler has queued
it, it is its ``Nudge`` row's. A tournament whose row is locked right now has a task running. It is
skipped. The broker may lose what it held: Redis restarted empty
(``infra.taskqueue.broker_emptied``). Nothing is in flight then, so all of it is queued again at
once.

Every task re-checks the state under the tournament lock. So a task queued twice changes nothing:
the first was only slow, not lost. It runs from ``tournaments.tasks.reconcile``. That is on every
worker's clock and Celery beat, one of them per period (``infra.liveness``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from infra.models import Nudge
from infra.taskqueue import broker_emptied, enqueue_named
from tournaments.models import Tournament
from tournaments.selectors.owed import Owed, other_owed_work, owed_work
from tournaments.services import clock
from tournaments.services.cardstats import card_stats_fold

log = logging.getLogger(__name__)

NUDGES_KEPT = timedelta(hours=1)
"""Nudges older than this are deleted (the work they were for is long done or long stale)."""


@dataclass(frozen=True)
class Reconciled:
    """One pass: the work owed, the tournaments the clock ticked, the keys queued again."""

    owed: int
    ticked: int
    requeued: tuple[str, ...]


def reconcile() -> Reconciled:
    """One pass over every running tournament, and the other apps' owed work."""
    now = timezone.now()
    owed = owed_work(now=now)
    ticked = clock.sweep(owed)
    others = other_owed_work(now=now)
    tasks = [o for o in owed if o.task is not None] + others
    # A broker that lost its messages holds no task in flight: none is worth waiting for.
    stale = tasks if broker_emptied() else _not_in_flight(tasks, now)
    requeued: list[str] = []
    by_tournament = sorted(stale, key=lambda o: o.tournament_id or 0)
    for tournament_id, items in groupby(by_tournament, key=lambda o: o.tournament_id):
        keys = {o.key for o in items}
        if tournament_id is None:
            requeued += _send([o for o in stale if o.key in keys])
        else:
            requeued += _requeue_tournament(tournament_id, keys)
    Nudge.objects.filter(queued_at__lt=now - NUDGES_KEPT).delete()
    card_stats_fold()  # card statistics a lost fold task left appended (usually none)
    if requeued:
        log.warning("Reconciler queued again: %s", ", ".join(requeued))
    return Reconciled(owed=len(owed) + len(others), ticked=ticked, requeued=tuple(requeued))


def _not_in_flight(owed: list[Owed], now: datetime) -> list[Owed]:
    """The owed tasks not queued within the bound.

    The change itself queued them first; nudges queue them after.
    """
    bound = timedelta(seconds=settings.RECONCILE_REQUEUE_SECONDS)
    nudged = dict(
        Nudge.objects.filter(key__in=[o.key for o in owed]).values_list("key", "queued_at")
    )
    return [o for o in owed if now - max(o.since, nudged.get(o.key, o.since)) >= bound]


def _requeue_tournament(tournament_id: int, keys: set[str]) -> list[str]:
    """Queue again the work ``keys`` of one tournament if it is still owed under the lock."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id)
        if not locked.values_list("pk", flat=True):
            return []  # a task holds the tournament right now: its work is in flight
        now = timezone.now()
        still = [o for o in owed_work(now=now, tournament_id=tournament_id) if o.key in keys]
    return _send(still)  # after the commit: the tasks read what the lock saw


def _send(owed: list[Owed]) -> list[str]:
    """Queue each piece of work. A nudge records each one the broker took."""
    now = timezone.now()
    sent = [o for o in owed if o.task is not None and enqueue_named(o.task, *o.args)]
    Nudge.objects.bulk_create(
        [Nudge(key=o.key, queued_at=now) for o in sent],
        update_conflicts=True,
        unique_fields=["key"],
        update_fields=["queued_at"],
    )
    return [o.key for o in sent]
