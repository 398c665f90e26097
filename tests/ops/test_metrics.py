"""``/metrics`` after a bot tournament of a league: every family is there, with the figures the
tournament, its stream, its tasks and its webhooks account for; the page is guarded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from leagues.models import WebhookDelivery
from matches.models import Match
from server import metrics_http
from server.asgi import application
from tests.caches import fresh_cache
from tests.graphql.socket import frames as subscription_frames
from tests.graphql.socket import open_socket, subscribe
from tests.leagues.helpers import create_organizer, league_with_season, ok, org, post
from tests.leagues.receiver import receiver
from tests.ops.helpers import finished_bot_tournaments
from tests.ops.scrape import Samples, scrape, total, value
from tournaments.models import TournamentEvent
from tournaments.selectors import events

pytestmark = pytest.mark.django_db(transaction=True)

P = "challengers_"
START_ROUTE = "api/v1/tournaments/<int:tournament_id>/start/"


def seated_bot_tournament(client: APIClient, url: str) -> tuple[int, str]:
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    ok(post(client, f"leagues/{slug}/webhooks/", {"url": url}, org(token)))
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    tid: int = ok(post(client, path, {"seats": 2}, org(token)))["id"]
    ok(post(client, f"tournaments/{tid}/bots/", {"count": 2}, org(token)), 200)
    return tid, token


def start(client: APIClient, tid: int, token: str) -> None:
    ok(post(client, f"tournaments/{tid}/start/", None, org(token)), 200)


async def watch_to_the_end(tid: int, start_it: Any) -> int:
    """Frames a spectator receives while the tournament is played, up to its last event."""
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tid}/")
    connected, _ = await socket.connect()
    assert connected
    logged = await database_sync_to_async(last_seq)(tid)
    frames = 0
    while frames < logged:  # the catch-up: the stream has joined the live group by now
        await socket.receive_json_from(timeout=10)
        frames += 1
    await database_sync_to_async(start_it)()
    while True:
        frame = await socket.receive_json_from(timeout=10)
        frames += 1
        if frame.get("kind") == "tournament_finished":
            break
    during, _ = await database_sync_to_async(scrape)()
    assert value(during, f"{P}websocket_connections") >= 1
    await socket.disconnect()
    return frames


def last_seq(tid: int) -> int:
    return TournamentEvent.objects.filter(tournament_id=tid).count()


def delta(after: Samples, before: Samples, name: str, **labels: str) -> float:
    return total(after, name, **labels) - total(before, name, **labels)


async def test_a_scrape_after_a_bot_tournament_has_every_family_with_its_figures(
    catalogue: Any, settings: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # the test's receiver listens on loopback
    before, _ = await database_sync_to_async(scrape)()
    client = APIClient()
    with receiver(fail_first=1) as received:
        tid, token = await database_sync_to_async(seated_bot_tournament)(client, received.url)
        logged = await database_sync_to_async(last_seq)(tid)
        frames = await watch_to_the_end(tid, lambda: start(client, tid, token))
    await database_sync_to_async(refuse_one_create)(settings)
    await database_sync_to_async(ask_graphql)()
    after, families = await database_sync_to_async(scrape)()

    matches = await database_sync_to_async(Match.objects.filter(tournament_id=tid).count)()
    deliveries = await database_sync_to_async(WebhookDelivery.objects.count)()
    assert matches >= 4 and deliveries >= 3
    assert delta(after, before, f"{P}matches_recorded_total") == matches
    assert delta(after, before, f"{P}matches_released_total") == matches
    assert delta(after, before, f"{P}tournament_transitions_total", event="tournament_started") == 1
    assert (
        delta(after, before, f"{P}tournament_transitions_total", event="tournament_finished") == 1
    )
    assert value(after, f"{P}tournaments", status="finished") == 1
    assert value(after, f"{P}tournaments_stuck") == 0

    started = dict(api="rest", route=START_ROUTE, method="POST")
    assert delta(after, before, f"{P}http_requests_total", **started, status="200") == 1
    assert delta(after, before, f"{P}http_request_duration_seconds_count", **started) == 1
    assert delta(after, before, f"{P}http_requests_total", api="graphql", route="graphql/") == 1
    assert delta(after, before, f"{P}throttled_requests_total", scope="create") == 1
    throttled = dict(api="rest", route="api/v1/tournaments/", status="429")
    assert delta(after, before, f"{P}http_requests_total", **throttled) == 1

    # Bots only: the task that plays a round's bots plays its matches too, and goes on with the
    # next rounds (for up to a second).
    bots = dict(task="tournaments.tasks.bot_deck_phases")
    succeeded = delta(after, before, f"{P}tasks_total", **bots, state="SUCCESS")
    assert succeeded >= 1
    assert delta(after, before, f"{P}task_duration_seconds_count", **bots) == succeeded
    assert delta(after, before, f"{P}tasks_total", task="tournaments.tasks.play_matches") == 0
    assert f"{P}task_retries" in families and f"{P}task_failures" in families
    # The gauge reads the run's shared broker queue: what this tournament queued is gone from it
    # (tasks another test of the run left there count before and after alike).
    assert (f"{P}task_queue_length", frozenset({("queue", "celery")})) in after
    assert delta(after, before, f"{P}task_queue_length", queue="celery") <= 0

    assert value(after, f"{P}websocket_connections") == 0
    assert delta(after, before, f"{P}websocket_frames_sent_total") == frames
    lagged = delta(after, before, f"{P}stream_lag_seconds_count")
    assert 0 < lagged <= frames - logged
    assert delta(after, before, f"{P}stream_lag_seconds_bucket", le="+Inf") == lagged

    assert delta(after, before, f"{P}webhook_deliveries_total", outcome="retrying") == 1
    assert delta(after, before, f"{P}webhook_deliveries_total", outcome="delivered") == deliveries
    assert f"{P}heartbeat_age_seconds" in families


def refuse_one_create(settings: Any) -> None:
    settings.THROTTLE_RATES = {"create": "1/min"}
    client = APIClient()
    body = {"name": "Host", "seats": 2}
    with fresh_cache():
        assert client.post("/api/v1/tournaments/", body, format="json").status_code == 201
        assert client.post("/api/v1/tournaments/", body, format="json").status_code == 429


def ask_graphql() -> None:
    answer = Client().post(
        "/graphql/", {"query": "{ __typename }"}, content_type="application/json"
    )
    assert answer.status_code == 200


def test_the_page_needs_the_token_or_a_request_from_this_host(db: None, settings: Any) -> None:
    assert Client(REMOTE_ADDR="10.0.0.9").get("/metrics").status_code == 404
    assert Client().get("/metrics").status_code == 200  # the test client is 127.0.0.1
    settings.METRICS_TOKEN = "s3cret"
    assert Client().get("/metrics").status_code == 404
    wrong = Client(REMOTE_ADDR="10.0.0.9").get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.status_code == 404
    right = Client(REMOTE_ADDR="10.0.0.9").get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert right.status_code == 200
    assert right["Content-Type"].startswith("text/plain")


def test_a_route_is_counted_by_its_pattern_not_its_path(db: None) -> None:
    before, _ = scrape()
    for tid in (999_001, 999_002):
        assert Client().get(f"/api/v1/tournaments/{tid}/").status_code == 404
    after, _ = scrape()
    route = dict(api="rest", route="api/v1/tournaments/<int:tournament_id>/", status="404")
    assert delta(after, before, f"{P}http_requests_total", **route) == 2
    assert not any("999001" in str(labels) for (_, labels) in after)


def ask(body: Any) -> None:
    sent = body if isinstance(body, str) else json.dumps(body)
    Client().post("/graphql/", sent, content_type="application/json")


def test_graphql_requests_are_counted_by_operation_with_a_bounded_set_of_names(
    db: None, monkeypatch: Any
) -> None:
    monkeypatch.setattr(metrics_http, "_names", set())
    monkeypatch.setattr(metrics_http, "MAX_OPERATION_NAMES", 2)
    before, _ = scrape()
    ask({"query": "query Me { __typename }"})
    ask({"query": "query A { __typename } query B { __typename }", "operationName": "B"})
    ask({"query": "{ __typename }"})
    ask({"query": "query Third { __typename }"})  # a third name: over the bound
    ask({"query": "query Me { __typename }"})
    ask("not json")
    Client().get("/api/v1/tournaments/999003/")
    after, _ = scrape()
    graphql = dict(api="graphql", route="graphql/")
    counted = {
        operation: delta(after, before, f"{P}http_requests_total", **graphql, operation=operation)
        for operation in ("Me", "B", "anonymous", "unknown", "Third", "A")
    }
    assert counted == {"Me": 2, "B": 1, "anonymous": 1, "unknown": 2, "Third": 0, "A": 0}
    timed = delta(after, before, f"{P}http_request_duration_seconds_count", operation="Me")
    assert timed == 2
    rest = delta(after, before, f"{P}http_requests_total", api="rest", operation="")
    assert rest == delta(after, before, f"{P}http_requests_total", api="rest") == 1


async def test_a_graphql_subscription_counts_as_an_open_stream_and_its_frames_as_sent(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "BATCH", 50)  # a catch-up of several batches
    (tid,) = await database_sync_to_async(finished_bot_tournaments)(1)
    final = await database_sync_to_async(last_seq)(tid)
    before, _ = await database_sync_to_async(scrape)()
    socket = await open_socket()
    query = "subscription($id: Int!) { tournamentEvents(tournamentId: $id) { seq } }"
    await subscribe(socket, query, {"id": tid})
    got, _ = await subscription_frames(socket, final, "tournamentEvents")
    during, _ = await database_sync_to_async(scrape)()
    await socket.disconnect()
    after, _ = await database_sync_to_async(scrape)()
    assert len(got) == final
    assert (
        value(during, f"{P}websocket_connections") == value(before, f"{P}websocket_connections") + 1
    )
    assert value(after, f"{P}websocket_connections") == value(before, f"{P}websocket_connections")
    assert delta(after, before, f"{P}websocket_frames_sent_total") == final
    assert final > 2 * events.BATCH
    assert delta(after, before, f"{P}stream_lag_seconds_count") == 0  # the catch-up: old news


async def test_the_rest_streams_catch_up_in_several_batches_is_not_lag(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "BATCH", 50)
    (tid,) = await database_sync_to_async(finished_bot_tournaments)(1)
    final = await database_sync_to_async(last_seq)(tid)
    before, _ = await database_sync_to_async(scrape)()
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tid}/")
    assert (await socket.connect())[0]
    while (await socket.receive_json_from(timeout=10))["seq"] < final:
        pass
    during, _ = await database_sync_to_async(scrape)()
    await socket.disconnect()
    assert final > 2 * events.BATCH
    assert delta(during, before, f"{P}websocket_frames_sent_total") == final
    assert delta(during, before, f"{P}stream_lag_seconds_count") == 0


def open_lobby() -> dict[str, Any]:
    response = APIClient().post("/api/v1/tournaments/", {"name": "Ann", "seats": 3}, format="json")
    assert response.status_code == 201, response.content
    ticket: dict[str, Any] = response.json()
    return ticket


def join(code: str, name: str) -> None:
    body = {"code": code, "name": name}
    response = APIClient().post("/api/v1/tournaments/join/", body, format="json")
    assert response.status_code == 201, response.content


async def test_a_graphql_subscriptions_live_frames_feed_the_stream_lag() -> None:
    ticket = await database_sync_to_async(open_lobby)()
    await database_sync_to_async(join)(ticket["code"], "Bob")  # a log to catch up on
    logged = await database_sync_to_async(last_seq)(ticket["id"])
    socket = await open_socket()
    query = "subscription($id: Int!) { tournamentEvents(tournamentId: $id) { seq kind } }"
    await subscribe(socket, query, {"id": ticket["id"]})
    caught_up, _ = await subscription_frames(socket, logged, "tournamentEvents")
    before, _ = await database_sync_to_async(scrape)()
    await database_sync_to_async(join)(ticket["code"], "Cid")
    final = await database_sync_to_async(last_seq)(ticket["id"])
    live, _ = await subscription_frames(socket, final, "tournamentEvents")
    during, _ = await database_sync_to_async(scrape)()
    await socket.disconnect()
    assert len(caught_up) == logged > 0 and live and live[-1]["seq"] == final > logged
    assert value(during, f"{P}websocket_connections") >= 1
    assert delta(during, before, f"{P}websocket_frames_sent_total") == len(live)
    assert delta(during, before, f"{P}stream_lag_seconds_count") == len(live)
    assert delta(during, before, f"{P}stream_lag_seconds_bucket", le="+Inf") == len(live)
