"""The tournaments' figures for ``/metrics``, read from the rows at scrape time.

They count the tournaments in each status, and those the reconciler sees stuck. Stuck means owed
work for over ``RECONCILE_STUCK_SECONDS``. ``/api/v1/health/`` reports the same count.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from infra import observe
from infra.metrics import PREFIX
from infra.metrics_state import database_answers
from tournaments.models import Status, Tournament
from tournaments.selectors.owed import stuck_tournaments

log = logging.getLogger(__name__)


class TournamentCollector(Collector):
    def collect(self) -> Iterable[Metric]:
        by_status = GaugeMetricFamily(
            f"{PREFIX}_tournaments", "Tournaments by status.", labels=["status"]
        )
        stuck = GaugeMetricFamily(
            f"{PREFIX}_tournaments_stuck",
            "Running tournaments owed work for over RECONCILE_STUCK_SECONDS (the reconciler's).",
        )
        if not database_answers():
            return  # the scrape's probe found it down (and said so)
        try:
            counts = _counts()
            stuck_now = len(
                stuck_tournaments(now=timezone.now(), seconds=settings.RECONCILE_STUCK_SECONDS)
            )
        except DatabaseError:
            log.warning("Metrics: the database does not answer", exc_info=True)
            observe.dependency_seen("database", False)
            return
        observe.dependency_seen("database", True)
        for status in Status.values:
            by_status.add_metric([status], counts.get(status, 0))
        stuck.add_metric([], stuck_now)
        yield by_status
        yield stuck


def _counts() -> dict[str, int]:
    rows = Tournament.objects.values("status").annotate(n=Count("id")).order_by()
    return {row["status"]: row["n"] for row in rows}
