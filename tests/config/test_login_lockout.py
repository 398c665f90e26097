"""The admin login resists guessing (django-axes) without letting a stranger lock the owner out:
five failed attempts lock the pair of account and address; tries during the lock do not make it
longer; the refusal is a translated page stating the minutes left (429); staff hear of each
lockout (a log event and a counter) and unlock early in the admin."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client
from django.utils.timezone import now

from infra.logformat import json_formatter
from tests.ops.scrape import scrape, value

PASSWORD = "right-horse-battery"
LOGIN = "/admin/login/?next=/admin/"
ATTACKER, OWNER = "203.0.113.9", "198.51.100.4"


@pytest.fixture
def curator(db: None) -> User:
    return User.objects.create_superuser("curator", "curator@example.com", PASSWORD)


@pytest.fixture
def events() -> Iterator[io.StringIO]:
    """The state-change log lines (``challengers.events``) as JSON lines."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(json_formatter())
    logger = logging.getLogger("challengers.events")
    logger.addHandler(handler)
    try:
        yield out
    finally:
        logger.removeHandler(handler)


def _login(username: str, password: str, address: str, **meta: Any) -> Any:
    body = {"username": username, "password": password}
    return Client().post(LOGIN, body, REMOTE_ADDR=address, **meta)


def _fail(times: int, *, username: str = "curator", address: str = ATTACKER) -> list[int]:
    """Wrong passwords for ``username`` from ``address``: the answers' statuses."""
    return [_login(username, "wrong", address).status_code for _ in range(times)]


def _age_attempts(by: timedelta) -> None:
    """The clock moves on rather than the test sleeping: every recorded attempt gets older."""
    for attempt in AccessAttempt.objects.all():
        AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=attempt.attempt_time - by)


def test_five_failures_lock_the_account_from_that_address_only(curator: User) -> None:
    assert _fail(4) == [200] * 4
    assert _login("curator", PASSWORD, ATTACKER).status_code == 302  # a success resets the pair
    assert _fail(5) == [200] * 4 + [429]  # the fifth failure locks
    assert _login("curator", PASSWORD, ATTACKER).status_code == 429
    assert _login("curator", PASSWORD, OWNER).status_code == 302  # the owner, elsewhere: in
    # The owner's success resets only the owner's pair: the attacker's stays locked.
    assert _login("curator", PASSWORD, ATTACKER).status_code == 429


def test_failures_from_many_addresses_lock_none_of_them(curator: User) -> None:
    statuses = [_login("curator", "wrong", f"10.0.0.{n}").status_code for n in range(1, 11)]
    assert statuses == [200] * 10
    assert _login("curator", PASSWORD, "10.0.0.1").status_code == 302


def test_failures_for_other_accounts_do_not_lock_the_address_for_the_owner(curator: User) -> None:
    for name in ("ann", "bob", "cat", "dan", "eve"):
        assert _fail(5, username=name)[-1] == 429
    assert _login("curator", PASSWORD, ATTACKER).status_code == 302


def test_tries_during_the_lock_do_not_make_it_longer(curator: User, settings: Any) -> None:
    assert _fail(5)[-1] == 429
    cool_off = settings.AXES_COOLOFF_TIME
    _age_attempts(cool_off - timedelta(minutes=1))  # 14 of the 15 minutes have passed
    assert _fail(3) == [429] * 3  # still locked, and these tries are not counted...
    assert _login("curator", PASSWORD, ATTACKER).status_code == 429
    assert AccessAttempt.objects.get().failures_since_start == 5
    _age_attempts(timedelta(minutes=1, seconds=1))  # ...so the lock ends on time
    assert _login("curator", PASSWORD, ATTACKER).status_code == 302


def test_the_refusal_states_the_minutes_left_in_the_chosen_language(
    curator: User, settings: Any
) -> None:
    _fail(5)
    _age_attempts(timedelta(minutes=3, seconds=30))  # 11.5 of 15 minutes left: "12 minutes"
    english = _login("curator", PASSWORD, ATTACKER)
    assert english.status_code == 429 and english["Content-Type"].startswith("text/html")
    assert "for 12 more minutes" in english.content.decode()
    assert 11 * 60 < int(english["Retry-After"]) <= 12 * 60
    russian = _login("curator", PASSWORD, ATTACKER, HTTP_ACCEPT_LANGUAGE="ru")
    assert "12 минут" in russian.content.decode()
    chinese = _login("curator", PASSWORD, ATTACKER, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "12 分钟" in chinese.content.decode()


def test_an_ajax_refusal_is_the_page_too_with_no_cors_header(curator: User) -> None:
    _fail(5)
    ajax = _login("curator", PASSWORD, ATTACKER, HTTP_X_REQUESTED_WITH="XMLHttpRequest")
    assert ajax.status_code == 429 and "Access-Control-Allow-Origin" not in ajax


def test_staff_hear_of_a_lockout_once(curator: User, events: io.StringIO) -> None:
    before = value(scrape()[0], "challengers_login_lockouts_total")
    _fail(8)  # five to lock, three more while locked
    lines = [json.loads(line) for line in events.getvalue().splitlines()]
    locked = [line for line in lines if line.get("event") == "login_locked_out"]
    assert [(line["username"], line["address"]) for line in locked] == [("curator", ATTACKER)]
    assert value(scrape()[0], "challengers_login_lockouts_total") == before + 1


def test_staff_unlock_a_pair_in_the_admin(curator: User, admin_client: Client) -> None:
    assert _fail(5)[-1] == 429
    attempts = admin_client.get("/admin/axes/accessattempt/")
    assert attempts.status_code == 200 and "curator" in attempts.content.decode()
    ids = list(AccessAttempt.objects.values_list("pk", flat=True))
    confirm = {"action": "delete_selected", "_selected_action": ids, "post": "yes"}
    assert admin_client.post("/admin/axes/accessattempt/", confirm).status_code == 302
    assert _login("curator", PASSWORD, ATTACKER).status_code == 302


def test_the_lock_ends_after_the_cool_off(curator: User, settings: Any) -> None:
    assert _fail(5)[-1] == 429
    older = now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    AccessAttempt.objects.update(attempt_time=older)
    assert _login("curator", PASSWORD, ATTACKER).status_code == 302
