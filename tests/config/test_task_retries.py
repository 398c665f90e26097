"""Every task of the project retries a database or broker error with backoff."""

from __future__ import annotations

from celery import Task

from infra.taskqueue import BROKER_ERRORS, DATABASE_ERRORS, RETRY_OPTIONS
from server.celery import app


def project_tasks() -> list[Task]:
    app.loader.import_default_modules()
    app.autodiscover_tasks(force=True)
    return [
        task for name, task in app.tasks.items() if name.startswith(("tournaments.", "leagues."))
    ]


def test_every_task_retries_database_and_broker_errors_with_backoff() -> None:
    tasks = project_tasks()
    names = {task.name for task in tasks}
    assert {"tournaments.tasks.bot_deck_phases", "tournaments.tasks.play_match"} <= names
    assert "leagues.tasks.deliver_webhook" in names
    for task in tasks:
        retried = set(getattr(task, "autoretry_for", ()))
        assert set(DATABASE_ERRORS) | set(BROKER_ERRORS) <= retried, task.name
        assert getattr(task, "retry_backoff", None) == RETRY_OPTIONS["retry_backoff"], task.name
        assert task.max_retries == RETRY_OPTIONS["max_retries"], task.name
        assert task.acks_late, task.name
