"""A season's JSON lines read fast and polled cheaply: a fixed number of statements whatever
the season holds, a version (``ETag``) that answers ``304`` while nothing shown changed, only the
tournaments that changed since a version the client names, and no version moved by a result
that is not released yet."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match
from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season, ok, post
from tests.leagues.helpers import org as as_organizer
from tournaments import tasks
from tournaments.models import Tournament, TournamentEvent
from tournaments.services import matchplay, rounds
from tournaments.services.clock import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


class Season:
    """A league's season driven over REST by its organizer."""

    def __init__(self, client: APIClient) -> None:
        self.client = client
        self.token = create_organizer("org")
        self.slug, self.id = league_with_season(client, self.token, "club")
        self.path = f"/api/v1/leagues/club/seasons/{self.id}/lines/"

    def played(self, seats: int = 2) -> int:
        return bot_tournament(self.client, self.token, self.slug, self.id, seats)

    def lobby(self, seats: int = 2) -> int:
        path = f"leagues/{self.slug}/seasons/{self.id}/tournaments/"
        made: int = ok(post(self.client, path, {"seats": seats}, as_organizer(self.token)))["id"]
        return made

    def start(self, tournament: int, seats: int = 2) -> None:
        headers = as_organizer(self.token)
        bots = {"count": seats}
        ok(post(self.client, f"tournaments/{tournament}/bots/", bots, headers), 200)
        ok(post(self.client, f"tournaments/{tournament}/start/", None, headers), 200)

    def get(self, query: str = "", **headers: str) -> Any:
        return self.client.get(self.path + query, headers=headers)


def version(answer: Any) -> str:
    tag: str = answer["ETag"]
    return tag.removeprefix("W/").strip('"')


def records(answer: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in answer.content.decode().splitlines()]


def blocks(lines: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The lines by tournament, in order (a match line names its tournament)."""
    found: dict[int, list[dict[str, Any]]] = {}
    for line in lines:
        found.setdefault(line.get("tournament", line["id"]), []).append(line)
    return found


def statements(season: Season, query: str = "") -> int:
    with CaptureQueriesContext(connection) as queries:
        assert season.get(query).status_code in (200, 304)
    return len(queries.captured_queries)


@pytest.fixture
def season(catalogue: Any) -> Season:
    return Season(APIClient())


def test_a_season_is_read_in_five_statements_whatever_it_holds(season: Season) -> None:
    season.played()
    season.lobby()
    cache.clear()
    # season, tournaments, results, their corrections and the season's; the matches once
    assert statements(season) == 6
    assert statements(season) == 5  # the finished tournament's matches from the cache
    season.played()
    season.played(seats=3)
    assert statements(season) == 6  # the new tournaments' matches, in one statement
    assert statements(season) == 5
    assert statements(season, f"?since={version(season.get())}") == 5


def test_an_unchanged_season_answers_304_to_its_etag_and_to_since(season: Season) -> None:
    season.played()
    full = season.get()
    assert full.status_code == 200 and full["Cache-Control"] == "no-cache"
    unchanged = season.get(If_None_Match=full["ETag"])
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert unchanged["ETag"] == full["ETag"]
    assert season.get(f"?since={version(full)}").status_code == 304
    assert season.get(If_None_Match='"0123456789abcdef01234567"').status_code == 200


def test_since_a_version_sends_only_the_tournaments_that_changed(season: Season) -> None:
    first = season.played()
    waiting = season.lobby()
    before = season.get()
    season.start(waiting)  # 2 bots play it to its end and it is recorded

    delta = season.get(f"?since={version(before)}")
    assert delta.status_code == 200 and delta["Delta-Base"] == f'"{version(before)}"'
    changed = records(delta)
    assert list(blocks(changed)) == [waiting]
    assert changed[0]["type"] == "tournament" and changed[0]["status"] == "finished"
    assert changed[0]["recorded"] and any(line["type"] == "match" for line in changed)
    # The delta applied over what the client held is the season now.
    assert list(blocks(records(before))) == [first, waiting]
    merged = {**blocks(records(before)), **blocks(changed)}
    now = season.get()
    assert [line for block in merged.values() for line in block] == records(now)
    assert "Delta-Base" not in now
    assert season.get(f"?since={version(now)}").status_code == 304


def test_a_version_the_server_forgot_gets_every_tournament(season: Season) -> None:
    season.played()
    before = season.get()
    season.played()
    cache.clear()
    answer = season.get(f"?since={version(before)}")
    assert answer.status_code == 200 and "Delta-Base" not in answer
    assert records(answer) == records(season.get())
    assert season.get("?since=0123456789abcdef01234567").status_code == 200


@pytest.mark.parametrize("since", ["x", "ABCDEF0123456789abcdef01", "0123", "1" * 25])
def test_a_malformed_since_is_refused(season: Season, since: str) -> None:
    answer = season.get(f"?since={since}")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert "since" in answer.json()["details"]


def test_an_unknown_season_or_league_is_refused(season: Season) -> None:
    unknown = season.client.get(f"/api/v1/leagues/club/seasons/{season.id + 9}/lines/")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_season")
    nowhere = season.client.get(f"/api/v1/leagues/nope/seasons/{season.id}/lines/")
    assert (nowhere.status_code, nowhere.json()["code"]) == (404, "not_found")


def test_a_compressed_answer_is_the_same_lines_and_its_weak_etag_still_matches(
    season: Season,
) -> None:
    season.played()
    plain = season.get()
    packed = season.get(Accept_Encoding="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2
    assert packed["ETag"] == f'W/"{version(plain)}"'
    assert season.get(If_None_Match=packed["ETag"]).status_code == 304


# A result stored but not released yet ------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[Clock]:
    settings.MATCH_EVENT_PACE_SECONDS = 1.0
    moved = Clock()
    monkeypatch.setattr(timezone, "now", moved)
    yield moved


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The matches a Match Phase opened, held for the test to play (the bots' task would play
    them at once)."""
    queued: list[int] = []

    def hold(_tournament: int, ids: list[int]) -> None:
        queued.extend(ids)

    monkeypatch.setattr(rounds, "_queue_matches", hold)
    monkeypatch.setattr(tasks, "_play_matches", hold)
    return queued


@pytest.mark.timeout(300)
def test_a_result_stored_before_its_release_moves_no_version(
    season: Season, clock: Clock, held: list[int]
) -> None:
    game = season.lobby(seats=3)
    season.start(game, seats=3)
    rounds_seen = 0
    while Tournament.objects.get(pk=game).status != "finished":
        before = season.get()
        for match in list(held):
            matchplay.match_play(match_id=match, tournament_id=game)
            # Stored, its events waiting for their time: nothing of it is shown yet.
            assert season.get(f"?since={version(before)}").status_code == 304
        assert Match.objects.filter(pk__in=held, status="recorded").exists()
        held.clear()
        pending = TournamentEvent.objects.filter(tournament_id=game, visible_at__gt=clock.now)
        clock.now = max(pending.values_list("visible_at", flat=True)) + timedelta(seconds=1)
        sweep_deadlines()
        rounds_seen += 1
    assert rounds_seen >= 2
    finished = records(season.get())
    assert finished[0]["status"] == "finished" and finished[0]["recorded"]
    assert (
        len([line for line in finished if line["type"] == "match"])
        == Match.objects.filter(tournament_id=game).count()
    )
