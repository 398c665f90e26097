"""The retention task, run every hour by Celery beat or a worker's clock.

It is a module of its own (``CELERY_IMPORTS``). It is a thin interface over
``tournaments.services.archive``.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

from infra.taskqueue import RETRY_OPTIONS

log = logging.getLogger("challengers.events")
SCHEDULE_NAME = "archive-events"


@shared_task(acks_late=True, **RETRY_OPTIONS)
def archive_events(source: str = "beat") -> int:
    """Archive the logs of tournaments finished ``EVENT_ARCHIVE_DAYS`` ago; return how many.

    ``EVENT_ARCHIVE_DAYS=off`` archives none. Beat sends it, or a worker's clock runs it. Either way
    it runs once a period, like the reconciler (``infra.liveness``).
    """
    from infra import liveness
    from tournaments.services.archive import archive_finished

    days: int | None = settings.EVENT_ARCHIVE_DAYS
    if days is None or (source == "beat" and not liveness.beat_turn(SCHEDULE_NAME)):
        return 0

    done = archive_finished(older_than_days=days)
    if done.tournaments:
        log.info(
            "events_archived %s tournament(s)",
            done.tournaments,
            extra={"event": "events_archived", **done.__dict__},
        )
    return done.tournaments
