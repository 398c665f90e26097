"""A season or a member deleted in the admin while the league records a result for it: the
delete waits for the recording (the league's row lock) and takes the new rows with it. Before,
the admin deleted at once (the foreign keys are checked at commit) and the recording then failed
at its commit (``IntegrityError``). Two real PostgreSQL transactions in two threads, as
``test_delete_races`` interleaves them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from leagues.models import League, Member, Season, Standing
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.leagues.test_delete_races import DEADLINE, in_thread, pytestmark, wait_until_blocked

__all__ = ["pytestmark"]


def a_season_and_a_member() -> tuple[League, Season, Member]:
    client, token = APIClient(), create_organizer("org")
    slug, season_id = league_with_season(client, token)
    ok(post(client, f"leagues/{slug}/members/", {"handle": "ann"}, org(token)))
    league = League.objects.get(slug=slug)
    return league, Season.objects.get(pk=season_id), Member.objects.get(handle="ann")


def recording(league: League, season: Season, member: Member) -> tuple[Callable[[], Any], Any]:
    """A recording's shape: the league's row lock, then a row of the season and the member,
    held open until ``commit`` is set."""
    wrote, commit = threading.Event(), threading.Event()

    def record() -> int:
        with transaction.atomic():
            League.objects.select_for_update().get(pk=league.pk)
            standing = Standing.objects.create(season=season, member=member, points=7)
            wrote.set()
            assert commit.wait(DEADLINE)
        return standing.pk

    return record, (wrote, commit)


@pytest.mark.parametrize("target", ["season", "member"])
def test_an_admin_delete_waits_for_a_recording_and_takes_its_rows(target: str) -> None:
    league, season, member = a_season_and_a_member()
    record, (wrote, commit) = recording(league, season, member)
    recorder, recorded = in_thread(record)
    assert wrote.wait(DEADLINE)
    staff = User.objects.create_superuser("staff", "staff@example.com", "pw-staff-1")
    admin = Client()  # raises what the view raises: a 500 fails the test with its traceback
    admin.force_login(staff)
    row = season if target == "season" else member
    path = f"/admin/leagues/{target}/{row.pk}/delete/"
    deleter, deleted = in_thread(lambda: admin.post(path, {"post": "yes"}))
    wait_until_blocked()  # the delete waits for the recording's transaction
    commit.set()
    recorder.join(DEADLINE)
    deleter.join(DEADLINE)

    assert isinstance(recorded[0], int), recorded
    assert not isinstance(deleted[0], BaseException), deleted[0]
    assert deleted[0].status_code == 302
    assert not type(row).objects.filter(pk=row.pk).exists()
    assert not Standing.objects.filter(pk=recorded[0]).exists()  # taken with it
