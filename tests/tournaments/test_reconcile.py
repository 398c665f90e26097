"""The reconciler drives what the rows say is owed when its task was lost, and only then.

A lost task is made for real: the tests send tasks to kombu's in-memory transport, where no
worker ever takes them (as when Redis restarts and drops its queues), or to a Redis port nobody
listens on (``apply_async`` raises after the commit).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from infra.models import Nudge
from infra.taskqueue import BROKER_MARK, clear_runner, start_clock
from leagues.models import LeagueTournament, WebhookDelivery, WebhookEndpoint
from matches.models import Match, MatchStatus
from server.celery import app as celery_app
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
)
from tests.leagues.receiver import receiver
from tests.tournaments.play import Player, open_game
from tests.workers.conftest import wait_for
from tournaments.models import Seat, Status, Tournament, TournamentEvent
from tournaments.selectors.owed import owed_work, stuck_tournaments
from tournaments.services import matchplay, rounds
from tournaments.services.reconcile import reconcile

pytestmark = pytest.mark.django_db(transaction=True)
LONG_AGO = timedelta(minutes=5)


def _broker(url: str, *, eager: bool) -> None:
    conf: Any = celery_app.conf
    conf.task_always_eager = conf.task_eager_propagates = eager
    conf.broker_url = url
    app: Any = celery_app
    app._pool = None  # the producers' pool was made for the previous URL
    app.amqp._producer_pool = None


@pytest.fixture
def lost_tasks() -> Iterator[None]:
    """Every task sent goes where no worker takes it; tasks run in the test's process again
    after ``in_process()``."""
    saved = celery_app.conf.broker_url
    _broker("memory://", eager=False)
    try:
        yield
    finally:
        _broker(saved, eager=True)


def in_process() -> None:
    _broker(celery_app.conf.broker_url, eager=True)


def owed_keys(tournament_id: int | None = None) -> list[str]:
    return sorted(o.key for o in owed_work(now=timezone.now(), tournament_id=tournament_id))


def age_everything() -> None:
    """As if every owed row and every nudge were older than the bound."""
    Tournament.objects.update(updated_at=timezone.now() - LONG_AGO)
    Match.objects.update(created_at=timezone.now() - LONG_AGO)
    Nudge.objects.update(queued_at=timezone.now() - LONG_AGO)
    WebhookDelivery.objects.update(created_at=timezone.now() - LONG_AGO)


def finish_deck_phase(player: Player) -> None:
    while player.act():
        pass


def test_lost_bot_deck_phases_are_queued_again_once_and_then_played(
    catalogue: Any, lost_tasks: None
) -> None:
    (host,) = open_game(seats=4, seed=3)
    finish_deck_phase(host)
    key = f"bots:{host.id}:1"
    assert owed_keys() == [key]
    assert reconcile().requeued == (), "the task may still be in flight: within the bound"

    age_everything()
    assert reconcile().requeued == (key,)
    assert reconcile().requeued == (), "just queued again: in flight"
    assert owed_keys() == [key], "the queued task was lost as well"

    in_process()
    age_everything()
    assert reconcile().requeued == (key,)
    tournament = Tournament.objects.get(pk=host.id)
    assert (tournament.round, tournament.status) == (2, Status.DECK)
    assert owed_keys() == [], "round 2's bots ran at once, in process; the host owes the rest"


def test_a_lost_match_is_played_once_and_a_second_pass_changes_nothing(
    catalogue: Any, lost_tasks: None
) -> None:
    host, guest = open_game(seats=2, humans=2, seed=5)
    finish_deck_phase(host)
    finish_deck_phase(guest)
    match = Match.objects.get(tournament_id=host.id)
    assert match.status == MatchStatus.SCHEDULED
    assert owed_keys() == [f"match:{match.pk}"]

    in_process()
    age_everything()
    assert reconcile().requeued == (f"match:{match.pk}",)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    version = Tournament.objects.get(pk=host.id).version
    assert reconcile().requeued == () and owed_keys() == []
    assert Tournament.objects.get(pk=host.id).version == version


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="a Redis broker")
def test_a_broker_that_lost_its_messages_gets_all_owed_work_at_once(
    catalogue: Any, lost_tasks: None
) -> None:
    """Redis restarted empty (its mark gone with the queues): nothing is in flight, so the
    reconciler queues the owed work at once instead of after RECONCILE_REQUEUE_SECONDS."""
    (host,) = open_game(seats=4, seed=3)
    finish_deck_phase(host)
    key = f"bots:{host.id}:1"
    assert reconcile().requeued == (), "just queued by the change itself: in flight"

    redis.Redis.from_url(str(django_settings.REDIS_URL)).delete(BROKER_MARK)  # what a restart loses
    assert reconcile().requeued == (key,)
    assert reconcile().requeued == (), "the mark is back: the bound applies again"


def test_work_owed_to_a_tournament_whose_lock_is_held_is_left_to_its_task(
    catalogue: Any, lost_tasks: None
) -> None:
    (host,) = open_game(seats=3, seed=4)
    age_everything()
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("SQLite has no row locks")
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with transaction.atomic():
            Tournament.objects.select_for_update().get(pk=host.id)
            held.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        assert reconcile().requeued == ()
    finally:
        release.set()
        holder.join()
    assert reconcile().requeued == (f"bots:{host.id}:1",)


def test_passed_deadlines_are_enforced_in_place(catalogue: Any, lost_tasks: None) -> None:
    (host,) = open_game(seats=2, seed=14, deck_deadline_seconds=600)
    in_process()
    Tournament.objects.filter(pk=host.id).update(phase_deadline=timezone.now() - LONG_AGO)
    assert f"deadline:{host.id}:1" in owed_keys()
    done = reconcile()
    assert done.ticked == 1
    assert Seat.objects.get(tournament_id=host.id, number=0).auto_played
    assert Tournament.objects.get(pk=host.id).round == 2
    assert reconcile().ticked == 0


class Died(BaseException):
    """The process dies: nothing after this point of it runs."""


def released_then_died(monkeypatch: pytest.MonkeyPatch) -> tuple[Player, Match]:
    """Two humans' round 1 match is played and released, and its worker dies before the round's
    close (which commits apart): the match is done, the round still on."""
    host, guest = open_game(seats=2, humans=2, seed=5)
    finish_deck_phase(host)
    finish_deck_phase(guest)
    match = Match.objects.get(tournament_id=host.id)

    def die(**_: Any) -> None:
        raise Died

    monkeypatch.setattr(matchplay, "round_close", die)
    with pytest.raises(Died):
        matchplay.matches_play(tournament_id=host.id, match_ids=[match.pk])
    monkeypatch.undo()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    log = TournamentEvent.objects.filter(tournament_id=host.id)
    assert log.filter(kind="match_finished").count() == 1
    assert not log.filter(kind="round_finished").exists()
    tournament = Tournament.objects.get(pk=host.id)
    assert (tournament.round, tournament.status) == (1, Status.MATCH)
    return host, match


def closed_once(host: Player) -> None:
    tournament = Tournament.objects.get(pk=host.id)
    assert (tournament.round, tournament.status) == (2, Status.DECK)
    log = TournamentEvent.objects.filter(tournament_id=host.id)
    assert log.filter(kind="round_finished").count() == 1
    assert log.filter(kind="deck_phase_opened", payload__round=2).count() == 1


def test_a_round_whose_close_died_after_its_last_release_is_closed_by_the_reconciler(
    catalogue: Any, lost_tasks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, _ = released_then_died(monkeypatch)
    assert owed_keys() == [f"round:{host.id}:1"]
    in_process()
    assert reconcile().ticked == 1
    closed_once(host)
    version = Tournament.objects.get(pk=host.id).version
    assert reconcile().ticked == 0 and owed_keys() == []
    assert Tournament.objects.get(pk=host.id).version == version


def test_a_round_whose_close_died_is_closed_by_its_tasks_redelivery_once(
    catalogue: Any, lost_tasks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, match = released_then_died(monkeypatch)
    in_process()
    matchplay.matches_play(tournament_id=host.id, match_ids=[match.pk])  # the task again
    closed_once(host)
    version = Tournament.objects.get(pk=host.id).version
    matchplay.matches_play(tournament_id=host.id, match_ids=[match.pk])
    closed_once(host)
    assert Tournament.objects.get(pk=host.id).version == version, "a third delivery: nothing"


def test_a_close_named_for_a_round_closed_already_changes_nothing(
    catalogue: Any, lost_tasks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every close names its round: one that comes late (the clock's and the task's, say, for
    the same round) finds it closed and leaves the next Deck Phase alone."""
    host, _ = released_then_died(monkeypatch)
    in_process()
    rounds.round_close(tournament_id=host.id, round_number=1)
    closed_once(host)
    version = Tournament.objects.get(pk=host.id).version
    rounds.round_close(tournament_id=host.id, round_number=1)
    closed_once(host)
    assert Tournament.objects.get(pk=host.id).version == version


def test_a_send_that_fails_after_the_commit_is_logged_and_left_to_the_reconciler(
    catalogue: Any, lost_tasks: None, caplog: pytest.LogCaptureFixture
) -> None:
    host, guest = open_game(seats=2, humans=2, seed=5)
    finish_deck_phase(host)
    _broker("redis://127.0.0.1:1/0", eager=False)
    celery_app.conf.broker_connection_retry = False
    celery_app.conf.task_publish_retry = False
    try:
        finish_deck_phase(guest)  # every answer 2xx: the state committed before the send
    finally:
        celery_app.conf.broker_connection_retry = True
        celery_app.conf.task_publish_retry = True
    assert "left to the reconciler" in caplog.text
    match = Match.objects.get(tournament_id=host.id)
    age_everything()
    assert reconcile().requeued == (), "the broker is still down: nothing sent, no nudge"
    assert not Nudge.objects.exists()
    in_process()
    assert reconcile().requeued == (f"match:{match.pk}",)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


def test_a_pending_webhook_delivery_is_sent_again(
    catalogue: Any, lost_tasks: None, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the test's receiver listens on loopback
    token = create_organizer("org")
    client = APIClient()
    slug, _ = league_with_season(client, token)
    with receiver() as received:
        ok(post(client, f"leagues/{slug}/webhooks/", {"url": received.url}, org(token)))
        endpoint = WebhookEndpoint.objects.get()
        delivery = WebhookDelivery.objects.create(
            endpoint=endpoint,
            kind="round_finished",
            idempotency_key="round:1",
            sequence=1,
            payload={"id": "round:1", "kind": "round_finished", "data": {}},
        )
        assert reconcile().requeued == ()
        age_everything()
        assert reconcile().requeued == (f"delivery:{delivery.pk}",)
        assert reconcile().requeued == ()
        in_process()
        age_everything()
        assert reconcile().requeued == (f"delivery:{delivery.pk}",)
        assert WebhookDelivery.objects.get().status == "delivered"
        assert list(received.processed) == ["round:1"]
        assert reconcile().requeued == ()


def test_a_tournament_owed_work_past_the_bound_is_counted_stuck(
    catalogue: Any, lost_tasks: None
) -> None:
    (host,) = open_game(seats=3, seed=4)
    assert stuck_tournaments(now=timezone.now(), seconds=60) == {}
    age_everything()
    stuck = stuck_tournaments(now=timezone.now(), seconds=60)
    assert list(stuck) == [host.id]


@pytest.fixture
def _quiet_runner_afterwards() -> Iterator[None]:
    yield
    clear_runner()


@pytest.mark.usefixtures("_quiet_runner_afterwards")
def test_the_embedded_servers_clock_reconciles_too(
    catalogue: Any, lost_tasks: None, settings: Any
) -> None:
    host = open_game(seats=3, seed=4)[0]
    finish_deck_phase(host)
    age_everything()
    settings.TASK_RUNNER = "thread"
    start_clock()
    wait_for(
        lambda: Tournament.objects.get(pk=host.id).round == 2,
        seconds=30,
        what="the embedded clock to queue the lost bots again",
    )


def test_a_league_result_whose_hook_was_lost_is_entered_once(catalogue: Any, settings: Any) -> None:
    token = create_organizer("org")
    client = APIClient()
    slug, season = league_with_season(client, token)
    hooks = settings.TOURNAMENT_HOOKS
    settings.TOURNAMENT_HOOKS = {}  # the finished tournament's hook task is lost
    tid = bot_tournament(client, token, slug, season, seats=2)
    settings.TOURNAMENT_HOOKS = hooks
    link = LeagueTournament.objects.get(tournament_id=tid)
    assert link.recorded_at is None
    Tournament.objects.filter(pk=tid).update(updated_at=timezone.now() - LONG_AGO)
    assert reconcile().requeued == (f"league_result:{tid}",)
    link.refresh_from_db()
    assert link.recorded_at is not None and link.recorded_seq == 1
    assert reconcile().requeued == ()
