"""Deletes racing the writes that need what they delete (issue 43: "Deleting a webhook while a
tournament finishes answered 500 once, FK violation at commit"): a webhook endpoint deleted
while an event for it is being logged, a member removed while it is being seated. Two real
PostgreSQL transactions in two threads, interleaved by waiting for one to block on the other's
row lock (``pg_stat_activity``): whichever goes first, each answers a success, a coded 4xx or a
clean skip, never a 500 or an ``IntegrityError``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

from leagues.models import League, Member, MemberSeat, WebhookDelivery, WebhookEndpoint
from leagues.services import leagues as services
from leagues.services import managing, webhooks
from tests.leagues.helpers import (
    create_organizer,
    league_with_season,
    member_token,
    ok,
    org,
    post,
)
from tournaments.selectors.viewers import organizer_of_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
    ),
]
DEADLINE = 30.0


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """``work`` in a thread of its own (its own connection); the list gets what it returned
    or raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # the test reads it
            outcome.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def wait_until_blocked() -> None:
    """Until another session of this database waits for a lock (the other thread is inside
    the statement the race is about)."""
    waiting = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
    )
    end = time.monotonic() + DEADLINE
    with connection.cursor() as cursor:
        while time.monotonic() < end:
            cursor.execute(waiting)
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)  # polling the event: the wait ends as soon as it is seen
    raise AssertionError("the other transaction never waited for the lock")


def endpoint_of_a_league() -> tuple[str, str, WebhookEndpoint]:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    league = League.objects.get(slug=slug)
    # made directly: its URL is never reached (a closed loopback port), only its rows matter
    endpoint = WebhookEndpoint.objects.create(league=league, url="http://127.0.0.1:9/", secret="s")
    return slug, token, endpoint


def emit(league_id: int, key: str) -> list[int]:
    return webhooks.emit(league_id=league_id, kind="tournament_finished", key=key, data={})


def test_a_delete_while_a_finished_tournament_is_logged_waits_and_takes_its_delivery(
    settings: Any,
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    slug, token, endpoint = endpoint_of_a_league()
    logged, commit = threading.Event(), threading.Event()

    def record() -> list[int]:  # as tournament_record: the event logged in its transaction
        with transaction.atomic():
            made = emit(endpoint.league_id, "finished-1")
            logged.set()
            assert commit.wait(DEADLINE)
        return made

    recording, recorded = in_thread(record)
    assert logged.wait(DEADLINE)
    client = APIClient(raise_request_exception=False)
    path = f"/api/v1/leagues/{slug}/webhooks/{endpoint.pk}/"
    deleting, deleted = in_thread(lambda: client.delete(path, headers=org(token)))
    wait_until_blocked()  # the delete waits for the recording's lock on the endpoint
    commit.set()
    recording.join(DEADLINE)
    deleting.join(DEADLINE)

    assert len(recorded[0]) == 1, recorded
    assert deleted[0].status_code == 204, deleted[0].content
    assert not WebhookEndpoint.objects.exists()
    assert not WebhookDelivery.objects.exists()  # the delivery went with its endpoint
    assert webhooks.deliver(delivery_id=recorded[0][0]) is None  # the task skips it


def test_an_event_logged_while_its_endpoint_is_deleted_skips_it(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    slug, token, endpoint = endpoint_of_a_league()
    gone, commit = threading.Event(), threading.Event()

    def delete() -> None:  # the organizer's delete, its transaction held open a moment
        with transaction.atomic():
            by = organizer_of_token(token)
            managing.webhook_delete(organizer=by, slug=slug, endpoint_id=endpoint.pk)
            gone.set()
            assert commit.wait(DEADLINE)

    deleting, deleted = in_thread(delete)
    assert gone.wait(DEADLINE)
    recording, recorded = in_thread(lambda: transaction.atomic()(emit)(endpoint.league_id, "f-2"))
    wait_until_blocked()  # the recording read the endpoint and waits for the delete's lock
    commit.set()
    deleting.join(DEADLINE)
    recording.join(DEADLINE)

    assert deleted == [None], deleted
    assert recorded == [[]], recorded  # skipped: nothing for an endpoint that is gone
    assert not WebhookDelivery.objects.exists()


def a_lobby_and_a_member() -> tuple[str, str, str, str]:
    """The league's slug, its organizer's token, a season tournament's room code (hosted by
    the member ann) and the token of the member bob, who has not sat anywhere yet."""
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    ann, bob = (member_token(client, token, slug, handle) for handle in ("ann", "bob"))
    league = client.get(f"/api/v1/leagues/{slug}/", headers=org(token)).json()
    join = league["seasons"][0]["join_code"]
    body = {"join_code": join, "name": "Ann", "seats": 3, "member_token": ann}
    return slug, token, ok(post(client, "leagues/tournaments/", body))["code"], bob


def test_a_member_removed_while_it_is_seated_is_refused_as_in_use() -> None:
    slug, token, code, bob = a_lobby_and_a_member()
    seated, commit = threading.Event(), threading.Event()

    def join() -> str:
        with transaction.atomic():
            ticket = services.league_seat_join(code=code, name=None, member_token=bob)
            seated.set()
            assert commit.wait(DEADLINE)
        return ticket.token

    joining, joined = in_thread(join)
    assert seated.wait(DEADLINE)
    client = APIClient(raise_request_exception=False)
    path = f"/api/v1/leagues/{slug}/members/bob/"
    removing, removed = in_thread(lambda: client.delete(path, headers=org(token)))
    wait_until_blocked()  # the removal waits for the seat's transaction
    commit.set()
    joining.join(DEADLINE)
    removing.join(DEADLINE)

    assert isinstance(joined[0], str), joined
    assert removed[0].status_code == 409, removed[0].content
    assert removed[0].json()["code"] == "member_in_use"
    assert MemberSeat.objects.filter(member__handle="bob").count() == 1


def test_a_member_seated_while_it_is_removed_is_refused_with_a_code() -> None:
    slug, token, code, bob = a_lobby_and_a_member()
    gone, commit = threading.Event(), threading.Event()

    def remove() -> None:
        with transaction.atomic():
            by = organizer_of_token(token)
            managing.member_remove(organizer=by, slug=slug, handle="bob")
            gone.set()
            assert commit.wait(DEADLINE)

    removing, removed = in_thread(remove)
    assert gone.wait(DEADLINE)
    client = APIClient(raise_request_exception=False)
    body = {"code": code, "member_token": bob}
    joining, joined = in_thread(lambda: post(client, "leagues/tournaments/join/", body))
    wait_until_blocked()  # the join waits for the removal's transaction
    commit.set()
    removing.join(DEADLINE)
    joining.join(DEADLINE)

    assert removed == [None], removed
    assert joined[0].status_code == 401, joined[0].content
    assert joined[0].json()["code"] == "bad_member_token"
    assert not Member.objects.filter(handle="bob").exists()
    assert not MemberSeat.objects.filter(seat__name="bob").exists()
