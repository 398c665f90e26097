"""JSON log lines: the request's id, its tournament's id and each task's id on the lines of the
work the request queued, and one event per state change that matters."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from celery import shared_task
from rest_framework.test import APIClient

from infra.logcontext import ContextFilter, bound
from infra.logformat import json_formatter
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.ops.scrape import scrape, total

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """Every log line of this process, written as the full stack writes them (LOG_FORMAT=json)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(json_formatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    saved = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)


def parsed(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_ids_of_a_request_reach_the_lines_of_the_tasks_it_queues(
    catalogue: Any, json_lines: io.StringIO
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid: int = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    ok(post(client, f"tournaments/{tid}/bots/", {"count": 2}, org(token)), 200)
    headers = {**org(token), "X-Request-ID": "req-42"}
    started = client.post(f"/api/v1/tournaments/{tid}/start/", headers=headers)
    assert started.status_code == 200 and started["X-Request-ID"] == "req-42"

    lines = parsed(json_lines)
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    ours = [line for line in lines if line.get("request_id") == "req-42"]
    in_tasks = [line for line in ours if line.get("task_id")]
    assert in_tasks, "the tasks the request queued log with its id"
    assert {line["tournament_id"] for line in ours} == {tid}
    events = {line["event"] for line in ours if "event" in line}
    assert {"tournament_started", "match_recorded", "match_released"} <= events
    recorded = next(line for line in ours if line.get("event") == "match_recorded")
    assert recorded["task_id"] and recorded["match_id"] > 0


def test_a_request_without_an_id_gets_one_and_a_bad_one_is_replaced(db: None) -> None:
    answer = APIClient().get("/api/v1/health/")
    assert len(answer["X-Request-ID"]) == 32
    forged = APIClient().get("/api/v1/health/", headers={"X-Request-ID": "a\u00e9 b"})
    assert forged["X-Request-ID"] != "a\u00e9 b" and len(forged["X-Request-ID"]) == 32


def test_a_dependency_lost_and_regained_is_logged_once_each(json_lines: io.StringIO) -> None:
    from infra.observe import dependency_seen

    for answered in (True, True, False, False, True, True):
        dependency_seen("test-redis", answered)
    events = [line["event"] for line in parsed(json_lines) if line.get("dependency")]
    assert events == ["dependency_lost", "dependency_regained"]


@shared_task(name="tests.ops.breaks")
def breaks() -> None:
    raise ValueError("broken on purpose")


@shared_task(bind=True, name="tests.ops.flaky", max_retries=2)
def flaky(self: Any) -> int:
    if self.request.retries == 0:
        raise self.retry(countdown=0)
    return int(self.request.retries)


def test_a_failed_task_is_one_event_and_counted_and_a_retry_is_counted(
    json_lines: io.StringIO,
) -> None:
    before, _ = scrape()
    with bound(request_id="req-failing"):  # not thrown: it fails as on a worker
        assert breaks.apply(throw=False).state == "FAILURE"
    assert flaky.apply(throw=False).get() == 1  # eagerly, the retry runs inside the first call
    after, _ = scrape()
    failed = [line for line in parsed(json_lines) if line.get("event") == "task_failed"]
    assert len(failed) == 1
    assert failed[0]["task"] == "tests.ops.breaks" and failed[0]["error"] == "ValueError"
    assert failed[0]["task_id"] and failed[0]["request_id"] == "req-failing"
    for name, task in (("task_failures_total", "breaks"), ("task_retries_total", "flaky")):
        series = f"challengers_{name}"
        grew = total(after, series, task=f"tests.ops.{task}") - total(
            before, series, task=f"tests.ops.{task}"
        )
        assert grew == 1, name
