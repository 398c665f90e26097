"""A league on the full stack: real Celery workers play a season of bot-only tournaments and
record them, and a webhook delivery whose worker dies between attempts is not lost."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from leagues.models import League, LeagueTournament, WebhookDelivery
from leagues.services import recording, webhooks
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.leagues.receiver import receiver
from tests.leagues.test_season import snapshot
from tests.workers.conftest import Workers, full_stack, wait_for

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]

SEATS = (2, 3, 2, 3, 2, 3, 2, 3, 2, 3)


def test_real_workers_play_and_record_a_season_the_same_as_a_recomputation(
    catalogue: Any, workers: Workers
) -> None:
    workers.start()
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tids = []
    for seats in SEATS:  # all opened and started at once: the worker interleaves them
        path = f"leagues/{slug}/seasons/{season}/tournaments/"
        tid = ok(post(client, path, {"seats": seats}, org(token)))["id"]
        ok(post(client, f"tournaments/{tid}/bots/", {"count": seats}, org(token)), 200)
        ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)
        tids.append(tid)

    def all_recorded() -> bool:
        links = LeagueTournament.objects.filter(tournament_id__in=tids)
        return links.filter(recorded_seq__isnull=False).count() == len(SEATS)

    wait_for(all_recorded, seconds=600, what="every tournament to be recorded")
    seqs = sorted(s for s in LeagueTournament.objects.values_list("recorded_seq", flat=True) if s)
    assert seqs == list(range(1, len(SEATS) + 1))
    incremental = snapshot()
    assert len(incremental["results"]) == sum(SEATS)
    league = League.objects.get(slug=slug)
    assert recording.league_recompute(league_id=league.pk) == len(SEATS)
    assert snapshot() == incremental


def test_a_delivery_whose_worker_died_between_attempts_is_sent_once_by_another(
    db: None, workers: Workers, settings: Any
) -> None:
    # The receiver listens on 127.0.0.1: private destinations allowed, here and in the workers.
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    private = {"WEBHOOKS_ALLOW_PRIVATE": "true"}
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    first = workers.start(env=private)
    with receiver(fail_first=10**6) as received:
        ok(post(client, f"leagues/{slug}/webhooks/", {"url": received.url}, org(token)))
        with transaction.atomic():
            league = League.objects.get(slug=slug)
            webhooks.emit(league_id=league.pk, kind="round_finished", key="k-1", data={"a": 1})
        attempted = WebhookDelivery.objects.filter(attempts__gte=1)
        wait_for(attempted.exists, seconds=30, what="the first attempt")
        first.kill()  # its retry waits in the broker, unacknowledged, or was never sent
        delivery = WebhookDelivery.objects.get()
        assert delivery.status == "pending" and delivery.attempts >= 1

        received.fail_first = 0  # the receiver is back
        # Beat's sweep, now, while no worker runs (a live one could deliver first and leave it
        # nothing to find); then a new worker takes what the sweep and the broker hold.
        assert webhooks.deliveries_stalled(older_than_seconds=0) == 1
        workers.start(env=private)

        def delivered() -> bool:
            return WebhookDelivery.objects.get().status == "delivered"

        wait_for(delivered, seconds=30, what="the delivery")
        assert list(received.processed) == ["k-1"]
        assert all(h["Idempotency-Key"] == "k-1" for h, _ in received.requests)
