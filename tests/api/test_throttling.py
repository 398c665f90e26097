"""Creating, joining and acting are throttled per client address: 429 `throttled`, Retry-After.

The suite runs unthrottled (``tests/conftest.py`` empties ``THROTTLE_RATES``); each test here sets
its own rates and a cache of its own, so no count leaks between tests (or into a shared Redis).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.api.test_rest_bad_input import coded
from tests.caches import own_cache
from tests.tournaments.play import Player, create

pytestmark = pytest.mark.django_db

CREATE = {"name": "Host", "seats": 3}


@pytest.fixture(name="own_cache")
def _own_cache() -> Iterator[None]:
    with own_cache():
        yield


def rates(settings: Any, **scopes: str) -> None:
    settings.THROTTLE_RATES = scopes


def test_the_default_test_configuration_throttles_nothing() -> None:
    assert django_settings.THROTTLE_RATES == {}


def test_creating_past_the_rate_is_429_throttled_with_retry_after(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, create="2/min")
    client = APIClient()
    for _ in range(2):
        assert client.post("/api/v1/tournaments/", CREATE, format="json").status_code == 201
    before = everything()
    response = client.post("/api/v1/tournaments/", CREATE, format="json")
    body = coded(response, 429, "throttled")
    wait = int(response["Retry-After"])
    assert 0 < wait <= 60 and body["details"] == {"retry_after": wait}
    assert everything() == before


def test_joining_past_the_rate_is_throttled(catalogue: Any, settings: Any, own_cache: None) -> None:
    rates(settings, join="1/min")
    client = APIClient()
    ticket = create(client, seats=3)
    join = {"code": ticket["code"], "name": "Ann"}
    assert client.post("/api/v1/tournaments/join/", join, format="json").status_code == 201
    before = everything()
    again = client.post("/api/v1/tournaments/join/", {**join, "name": "Bob"}, format="json")
    coded(again, 429, "throttled")
    assert everything() == before


def test_actions_past_the_rate_are_throttled_and_reads_are_not(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, action="2/hour")
    client = APIClient()
    ticket = create(client, seats=3)
    host = Player(client, ticket["id"], ticket["seat"]["token"])
    host.answer_live(False)
    host.post("bots", {"count": 1})
    before = everything()
    refused = [
        client.post(f"/api/v1/tournaments/{host.id}/start/", headers=host.headers),
        client.patch(
            f"/api/v1/tournaments/{host.id}/seat/",
            {"answers_live": True},
            format="json",
            headers=host.headers,
        ),
        client.post(f"/api/v1/tournaments/{host.id}/draft/draw/", headers=host.headers),
        client.post("/api/v1/matches/1/answer/", {"question": 1, "answer": []}, format="json"),
    ]
    for response in refused:
        assert 3000 < int(response["Retry-After"]) <= 3600
        coded(response, 429, "throttled")
    assert everything() == before
    for _ in range(5):
        assert client.get(f"/api/v1/tournaments/{host.id}/").status_code == 200


def test_each_client_address_has_its_own_count_and_a_forged_header_does_not_reset_it(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, create="1/min")
    client = APIClient()
    assert client.post("/api/v1/tournaments/", CREATE, format="json").status_code == 201
    forged = client.post(
        "/api/v1/tournaments/", CREATE, format="json", HTTP_X_FORWARDED_FOR="203.0.113.9"
    )
    coded(forged, 429, "throttled")
    other = client.post("/api/v1/tournaments/", CREATE, format="json", REMOTE_ADDR="192.0.2.7")
    assert other.status_code == 201


def test_behind_the_proxy_the_forwarded_address_is_counted(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, create="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient()
    for address in ("198.51.100.1", "198.51.100.2"):
        response = client.post(
            "/api/v1/tournaments/", CREATE, format="json", HTTP_X_FORWARDED_FOR=address
        )
        assert response.status_code == 201
    again = client.post(
        "/api/v1/tournaments/", CREATE, format="json", HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    coded(again, 429, "throttled")


def test_a_scope_without_a_rate_is_not_throttled(
    catalogue: Any, settings: Any, own_cache: None
) -> None:
    rates(settings, join="1/min")
    client = APIClient()
    for _ in range(5):
        assert client.post("/api/v1/tournaments/", CREATE, format="json").status_code == 201
