"""A worker's wait for the migrations (``infra/migrated.py``): what it reads and what it says.
A real worker on an empty database: ``tests/workers/test_migrations_first.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.utils import CaptureQueriesContext
from django.utils.connection import ConnectionDoesNotExist

from infra import migrated


@pytest.mark.django_db(transaction=True)
def test_the_check_reads_the_database_through_a_connection_of_its_own() -> None:
    """None of it through the process's connection: in a worker's main process that would open
    the pool (a task then hung in its connection check)."""
    with CaptureQueriesContext(connections[DEFAULT_DB_ALIAS]) as queries:
        assert migrated.pending_migrations() == 0
    assert len(queries) == 0
    with pytest.raises(ConnectionDoesNotExist):
        connections[migrated.CHECK_ALIAS]  # forgotten after


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[int | None]) -> None:
    given: Iterator[int | None] = iter(answers)
    monkeypatch.setattr(migrated, "pending_migrations", lambda: next(given))


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "infra.migrated"]


def test_a_wait_is_said_once_reminded_and_ended(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _answers(monkeypatch, [74, 74, 3, 0])
    migrated.wait_for_migrations(poll=0, remind=0)
    said = _said(caplog)
    assert said[0].startswith("Waiting for the migrations of database ")
    assert said[0].endswith(": 74 to apply.")
    assert [line.split(":")[-1] for line in said[1:3]] == [" 74.", " 3."]
    assert "migrated: starting after 0 s." in said[3] and len(said) == 4


def test_nothing_is_said_without_a_wait_and_a_silent_database_is_not_waited_for(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    for answer in (0, None):
        _answers(monkeypatch, [answer])
        migrated.wait_for_migrations(poll=0)
    assert _said(caplog) == []
    _answers(monkeypatch, [5, None])
    migrated.wait_for_migrations(poll=0)
    assert "does not answer: starting after" in _said(caplog)[-1]
