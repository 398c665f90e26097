"""With Redis down, the cache is a miss, never a 500: views read the database, throttles pass."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from tests.tournaments.play import create

DEAD_REDIS_CACHE = {
    "default": {
        "BACKEND": "infra.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


def test_every_call_answers_as_an_empty_cache(caplog: pytest.LogCaptureFixture) -> None:
    with override_settings(CACHES=DEAD_REDIS_CACHE):
        assert cache.get("k", "fallback") == "fallback"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("k", 1) is False
        cache.set("k", 1)
        assert cache.set_many({"a": 1}) == ["a"]
        assert cache.has_key("k") is False
        assert cache.delete("k") is False
    assert "Redis does not answer" in caplog.text


@pytest.mark.django_db
def test_the_tournament_view_reads_the_database_while_redis_is_down(
    catalogue: Any, settings: Any
) -> None:
    client = APIClient()
    with override_settings(CACHES=DEAD_REDIS_CACHE):
        ticket = create(client, seats=2)
        headers = {"Authorization": f"Bearer {ticket['seat']['token']}"}
        for _ in range(2):
            response = client.get(f"/api/v1/tournaments/{ticket['id']}/", headers=headers)
            assert response.status_code == 200, response.content
            assert response.json()["status"] == "lobby"
        matches = client.get(f"/api/v1/tournaments/{ticket['id']}/matches/", headers=headers)
        assert matches.status_code == 200, matches.content


@pytest.mark.django_db
def test_throttles_let_requests_through_while_redis_is_down(catalogue: Any, settings: Any) -> None:
    settings.THROTTLE_RATES = {"create": "1/min"}
    client = APIClient()
    with override_settings(CACHES=DEAD_REDIS_CACHE):
        create(client, seats=2)
        create(client, seats=2)  # a second within the minute: nothing counted, so not refused
    cache.delete("throttle_create_127.0.0.1")  # a count another test may have left
    create(client, seats=2)
    refused = client.post("/api/v1/tournaments/", {"name": "Host", "seats": 2}, format="json")
    assert refused.status_code == 429, "with Redis back, the throttle counts again"
