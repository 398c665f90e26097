"""Organizing writes that race each other on PostgreSQL: two organizers removing each other,
two accepting one join request, two people signing up as ``Ann`` and ``ann``. The test holds
the lock the writes need, lets both block on it (``pg_stat_activity``), then lets go: the
writes go one after the other, and the rule each checks holds whatever the order."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from rest_framework.test import APIClient

from infra.errors import ApplicationError
from leagues.models import JoinRequest, League, Member
from leagues.services import accounts, joining, organizing
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.leagues.test_delete_races import DEADLINE, in_thread
from tournaments.selectors.viewers import organizer_of_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
    ),
]


def wait_for_waiters(count: int) -> None:
    """Until ``count`` other sessions of this database wait for a lock."""
    waiting = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
    )
    end = time.monotonic() + DEADLINE
    with connection.cursor() as cursor:
        while time.monotonic() < end:
            # Inside the holding transaction PostgreSQL would answer from its first snapshot of
            # the statistics (stats_fetch_consistency); each poll asks for a fresh one.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(waiting)
            if cursor.fetchone()[0] >= count:
                return
            time.sleep(0.02)  # polling the event: the wait ends as soon as it is seen
    raise AssertionError(f"{count} transactions never waited for the lock")


@contextmanager
def both_blocked(hold: Callable[[], None], *works: Callable[[], Any]) -> Iterator[list[Any]]:
    """Run ``works`` in threads while this connection holds what ``hold`` locks; once all
    wait for it, let go and yield each one's outcome (a value or the error it raised)."""
    with transaction.atomic():
        hold()
        started = [in_thread(work) for work in works]
        wait_for_waiters(len(works))
    for thread, _outcome in started:
        thread.join(DEADLINE)
    yield [outcome[0] for _thread, outcome in started]


def codes(outcomes: list[Any]) -> list[str]:
    """Each outcome's error code, ``ok`` for a success; sorted."""
    return sorted(o.code if isinstance(o, ApplicationError) else "ok" for o in outcomes)


def test_two_organizers_removing_each_other_at_once_leave_one() -> None:
    client = APIClient()
    ada, bea = create_organizer("ada"), create_organizer("bea")
    slug, _season = league_with_season(client, ada)
    ok(post(client, f"leagues/{slug}/organizers/", {"username": "bea"}, org(ada)))

    def removes(token: str, other: str) -> Callable[[], Any]:
        caller = organizer_of_token(token)
        return lambda: organizing.organizer_remove(organizer=caller, slug=slug, username=other)

    def hold() -> None:
        list(League.objects.select_for_update().filter(slug=slug))

    with both_blocked(hold, removes(ada, "bea"), removes(bea, "ada")) as outcomes:
        assert codes(outcomes) == ["last_organizer", "ok"]
    (left,) = League.objects.get(slug=slug).organizers.values_list("username", flat=True)
    stays = {"ada": ada, "bea": bea}[left]  # whichever went first, the other one stays
    changes = ok(client.get(f"/api/v1/leagues/{slug}/organizer-changes/", headers=org(stays)), 200)
    assert [item["change"] for item in changes["results"]] == ["added", "added", "removed"]


def test_two_organizers_accepting_one_join_request_at_once_make_one_member() -> None:
    client = APIClient()
    ada, bea = create_organizer("ada"), create_organizer("bea")
    slug, _season = league_with_season(client, ada)
    ok(post(client, f"leagues/{slug}/organizers/", {"username": "bea"}, org(ada)))
    asked = ok(post(client, f"leagues/{slug}/join-requests/", {"handle": "Zoe"}))

    def accepts(token: str) -> Callable[[], Any]:
        caller = organizer_of_token(token)
        return lambda: joining.join_request_accept(
            organizer=caller, slug=slug, request_id=asked["id"]
        )

    def hold() -> None:
        list(JoinRequest.objects.select_for_update().filter(pk=asked["id"]))

    with both_blocked(hold, accepts(ada), accepts(bea)) as outcomes:
        assert codes(outcomes) == ["join_request_decided", "ok"]
    assert list(Member.objects.values_list("handle", flat=True)) == ["Zoe"]
    assert JoinRequest.objects.get().status == "accepted"


def test_ann_and_ann_signing_up_at_once_make_one_account() -> None:
    def signs_up(name: str) -> Callable[[], Any]:
        return lambda: accounts.organizer_sign_up(username=name, about="")

    def hold() -> None:
        accounts.lock_name("ANN")

    with both_blocked(hold, signs_up("Ann"), signs_up("ann")) as outcomes:
        assert codes(outcomes) == ["ok", "username_taken"]
    assert get_user_model().objects.filter(username__iexact="ann").count() == 1
