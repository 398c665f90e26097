"""``Idempotency-Key``: a retried POST changes nothing twice and gets the first answer."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone
from rest_framework.test import APIClient

from infra.idempotency import purge_expired
from infra.models import IdempotencyKey
from tests.api.snapshot import everything
from tests.tournaments.play import Player, create
from tournaments.models import Seat, Tournament

CREATE = {"name": "Host", "seats": 3}


def post(client: APIClient, path: str, body: Any, key: str | None, **headers: str) -> Any:
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(path, body, format="json", headers=headers)


@pytest.mark.django_db
def test_the_same_key_twice_creates_once_and_answers_the_same(catalogue: Any) -> None:
    client = APIClient()
    first = post(client, "/api/v1/tournaments/", CREATE, "k-1")
    again = post(client, "/api/v1/tournaments/", CREATE, "k-1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Tournament.objects.count() == 1
    other = post(client, "/api/v1/tournaments/", CREATE, "k-2")
    assert other.status_code == 201 and Tournament.objects.count() == 2
    without = post(client, "/api/v1/tournaments/", CREATE, None)
    assert without.status_code == 201 and Tournament.objects.count() == 3


@pytest.mark.django_db
def test_an_action_retried_is_done_once_and_a_refusal_is_replayed(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client, seats=3)
    host = {"Authorization": f"Bearer {ticket['seat']['token']}"}
    path = f"/api/v1/tournaments/{ticket['id']}/bots/"
    first = post(client, path, {"count": 1}, "bots", **host)
    assert first.status_code == 200
    again = post(client, path, {"count": 1}, "bots", **host)
    assert again.status_code == 200 and again.content == first.content
    assert Seat.objects.filter(tournament_id=ticket["id"]).count() == 2
    # A refusal is an answer too: replayed as it was, even once the state would allow it.
    start = f"/api/v1/tournaments/{ticket['id']}/start/"
    refused = post(client, start, {}, "start", **host)
    assert refused.status_code == 409 and refused.json()["code"] == "seats_open"
    assert post(client, path, {"count": 1}, None, **host).status_code == 200
    replayed = post(client, start, {}, "start", **host)
    assert replayed.status_code == 409 and replayed.content == refused.content
    assert post(client, start, {}, "start-2", **host).status_code == 200


@pytest.mark.django_db
def test_keys_are_per_caller(catalogue: Any) -> None:
    client = APIClient()
    ticket = create(client, seats=3)
    path = f"/api/v1/tournaments/{ticket['id']}/bots/"
    host = {"Authorization": f"Bearer {ticket['seat']['token']}"}
    spectator = post(client, path, {"count": 1}, "same", REMOTE_ADDR="10.0.0.9")
    assert spectator.status_code == 403
    assert post(client, path, {"count": 1}, "same", **host).status_code == 200
    assert Seat.objects.filter(tournament_id=ticket["id"]).count() == 2


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_409_and_changes_nothing(catalogue: Any) -> None:
    client = APIClient()
    assert post(client, "/api/v1/tournaments/", CREATE, "k").status_code == 201
    before = everything()
    for path, body in (
        ("/api/v1/tournaments/", {**CREATE, "seats": 4}),
        ("/api/v1/tournaments/join/", {"code": "ABCDEF", "name": "X"}),
    ):
        response = post(client, path, body, "k")
        assert response.status_code == 409, response.content
        assert response.json()["code"] == "idempotency_key_reused"
    assert everything() == before


@pytest.mark.django_db
def test_a_malformed_key_is_refused(catalogue: Any) -> None:
    client = APIClient()
    for key in ("", "x" * 256, "caf\u00e9"):
        response = post(client, "/api/v1/tournaments/", CREATE, key)
        assert response.status_code == 400 and response.json()["code"] == "bad_idempotency_key"
    assert Tournament.objects.count() == 0


@pytest.mark.django_db
def test_a_key_in_flight_is_409_in_use(catalogue: Any) -> None:
    client = APIClient()
    response = post(client, "/api/v1/tournaments/", CREATE, "busy")
    row = IdempotencyKey.objects.get(key="busy")
    IdempotencyKey.objects.filter(pk=row.pk).update(status=None)  # as if still running
    again = post(client, "/api/v1/tournaments/", CREATE, "busy")
    assert again.status_code == 409 and again.json()["code"] == "idempotency_key_in_use"
    assert response.status_code == 201 and Tournament.objects.count() == 1
    # A claim whose request never finished is taken again after a while.
    IdempotencyKey.objects.filter(pk=row.pk).update(created=timezone.now() - timedelta(minutes=10))
    assert post(client, "/api/v1/tournaments/", CREATE, "busy").status_code == 201
    assert Tournament.objects.count() == 2


@pytest.mark.django_db
def test_keys_expire_after_a_day(catalogue: Any) -> None:
    client = APIClient()
    assert post(client, "/api/v1/tournaments/", CREATE, "old").status_code == 201
    IdempotencyKey.objects.update(created=timezone.now() - timedelta(hours=23))
    assert post(client, "/api/v1/tournaments/", CREATE, "old").status_code == 201
    assert Tournament.objects.count() == 1
    IdempotencyKey.objects.update(created=timezone.now() - timedelta(days=1, seconds=1))
    assert post(client, "/api/v1/tournaments/", CREATE, "old").status_code == 201
    assert Tournament.objects.count() == 2
    IdempotencyKey.objects.update(created=timezone.now() - timedelta(days=2))
    assert purge_expired() == 1 and not IdempotencyKey.objects.exists()


@pytest.mark.django_db
def test_server_errors_and_throttled_answers_are_not_kept(catalogue: Any, settings: Any) -> None:
    client = APIClient()
    settings.THROTTLE_RATES = {"create": "1/min"}
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "i"}
    }
    from django.core.cache import cache

    cache.clear()
    assert post(client, "/api/v1/tournaments/", CREATE, "a").status_code == 201
    assert post(client, "/api/v1/tournaments/", CREATE, "b").status_code == 429
    assert not IdempotencyKey.objects.filter(key="b").exists()
    cache.clear()
    assert post(client, "/api/v1/tournaments/", CREATE, "b").status_code == 201


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent claims need PostgreSQL (DATABASE_URL)"
)
def test_concurrent_duplicates_run_once_on_postgresql(catalogue: Any) -> None:
    ticket = create(APIClient(), seats=8)
    host = Player(APIClient(), ticket["id"], ticket["seat"]["token"])
    path = f"/api/v1/tournaments/{ticket['id']}/bots/"
    threads = 8
    barrier = threading.Barrier(threads)
    answers: list[tuple[int, bytes, str | None]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            client = APIClient()
            barrier.wait()
            response = post(client, path, {"count": 1}, "together", **host.headers)
            answers.append(
                (response.status_code, response.content, response.get("Idempotent-Replayed"))
            )
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert errors == []
    assert Seat.objects.filter(tournament_id=ticket["id"]).count() == 2  # one bot, not eight
    done = [a for a in answers if a[0] == 200]
    assert len([a for a in done if a[2] is None]) == 1
    assert len({a[1] for a in done}) == 1
    busy = [a for a in answers if a[0] != 200]
    assert all(a[0] == 409 and b"idempotency_key_in_use" in a[1] for a in busy)
    assert len(answers) == threads
