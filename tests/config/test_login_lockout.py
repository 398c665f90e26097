"""The admin login resists guessing (django-axes): an account, and an address, are locked after
five failed attempts; staff unlock early in the admin; the lock ends after its cool-off."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django.utils.timezone import now

PASSWORD = "right-horse-battery"
LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture
def curator(db: None) -> User:
    return User.objects.create_superuser("curator", "curator@example.com", PASSWORD)


def _login(username: str, password: str, address: str) -> Any:
    body = {"username": username, "password": password}
    return Client().post(LOGIN, body, REMOTE_ADDR=address)


def _fail(times: int, *, username: str = "curator", address: str | None = None) -> list[int]:
    """Wrong passwords, each from its own address unless one is given: the answers' statuses."""
    return [
        _login(username, "wrong", address or f"10.0.0.{attempt + 1}").status_code
        for attempt in range(times)
    ]


def test_five_failures_lock_the_account_from_any_address(curator: User) -> None:
    assert _fail(4) == [200] * 4  # four addresses, one account: the form again
    assert _login("curator", PASSWORD, "10.0.1.1").status_code == 302  # a success resets
    assert _fail(5) == [200] * 4 + [429]  # the fifth failure locks
    locked = _login("curator", PASSWORD, "10.0.1.2")
    assert locked.status_code == 429
    assert "too many login attempts" in locked.content.decode().lower()


def test_five_failures_lock_the_address_for_every_account(curator: User) -> None:
    names = ("ann", "bob", "cat", "dan", "eve")
    statuses = [_fail(1, username=name, address="192.0.2.7")[0] for name in names]
    assert statuses == [200] * 4 + [429]
    assert _login("curator", PASSWORD, "192.0.2.7").status_code == 429
    assert _login("curator", PASSWORD, "192.0.2.8").status_code == 302


def test_staff_unlock_an_account_in_the_admin(curator: User, admin_client: Client) -> None:
    assert _fail(5)[-1] == 429
    assert _login("curator", PASSWORD, "10.0.1.1").status_code == 429
    attempts = admin_client.get("/admin/axes/accessattempt/")
    assert attempts.status_code == 200 and "curator" in attempts.content.decode()
    ids = list(AccessAttempt.objects.values_list("pk", flat=True))
    confirm = {"action": "delete_selected", "_selected_action": ids, "post": "yes"}
    assert admin_client.post("/admin/axes/accessattempt/", confirm).status_code == 302
    assert _login("curator", PASSWORD, "10.0.1.1").status_code == 302


def test_the_lock_ends_after_the_cool_off(curator: User, settings: Any) -> None:
    assert _fail(5)[-1] == 429
    assert _login("curator", PASSWORD, "10.0.1.1").status_code == 429  # counted: starts again
    # The clock moves on rather than the test sleeping: every attempt is now older than the
    # cool-off (each attempt while locked counts as a failure and starts the cool-off again).
    older = now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    AccessAttempt.objects.update(attempt_time=older)
    assert _login("curator", PASSWORD, "10.0.1.1").status_code == 302
