"""A real worker's side of the operators' view: its JSON log lines carry the id of the request
that queued the work, and its task figures reach ``/metrics`` through prometheus_client's
multiprocess directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.ops.scrape import scrape, value
from tests.workers.conftest import Workers, full_stack, wait_for
from tournaments.models import Status, Tournament

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]

REQUEST_ID = "req-worker-7"


def bot_tournament_started(client: APIClient) -> int:
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid: int = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    ok(post(client, f"tournaments/{tid}/bots/", {"count": 2}, org(token)), 200)
    headers = {**org(token), "X-Request-ID": REQUEST_ID}
    assert client.post(f"/api/v1/tournaments/{tid}/start/", headers=headers).status_code == 200
    return tid


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_a_workers_lines_and_figures_follow_the_request_that_queued_its_work(
    catalogue: Any, workers: Workers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "prometheus"
    shared.mkdir()
    env = {"LOG_FORMAT": "json", "PROMETHEUS_MULTIPROC_DIR": str(shared)}
    worker = workers.start(env=env)
    tid = bot_tournament_started(APIClient())

    def finished() -> bool:
        return Tournament.objects.get(pk=tid).status == Status.FINISHED

    wait_for(finished, seconds=90, what="the bot tournament to finish on the worker")
    matches = Match.objects.filter(tournament_id=tid).count()

    def all_recorded() -> bool:
        lines = json_lines(worker.output())
        return sum(line.get("event") == "match_recorded" for line in lines) == matches

    wait_for(all_recorded, seconds=10, what="the worker to log every match")
    lines = json_lines(worker.output())
    assert lines and all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    played = [line for line in lines if line.get("event") == "match_recorded"]
    assert len(played) == matches
    for line in played:  # queued by tasks queued by the request: the id is carried all the way
        assert line["request_id"] == REQUEST_ID and line["tournament_id"] == tid
        assert line["task_id"]
    assert any(line.get("event") == "tournament_finished" for line in lines)

    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(shared))  # as the web process reads it
    samples, _ = scrape()
    # Bots only: the task that plays a round's bots plays its matches too (no play task), and
    # goes on with the next rounds (for up to a second).
    bots = {"task": "tournaments.tasks.bot_deck_phases", "state": "SUCCESS"}
    assert value(samples, "challengers_tasks_total", **bots) >= 1
    assert value(samples, "challengers_matches_recorded_total") == matches
