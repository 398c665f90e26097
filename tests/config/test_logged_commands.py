"""The commands compose's ``init`` and ``backup`` run log their report line by line when the logs
are JSON (``infra.commands.LoggedOutput``): their containers then write JSON lines only."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import BaseCommand

from infra.commands import LoggedOutput, LogLines
from infra.management.commands.backup import Command as Backup


def _lines(caplog: pytest.LogCaptureFixture, command: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == f"challengers.commands.{command}"]


@pytest.mark.django_db
def test_a_report_is_logged_line_by_line_under_json_logs(
    settings: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.LOG_FORMAT = "json"
    call_command("ensure_admin")
    call_command("migrate", interactive=False)
    (created,) = _lines(caplog, "ensure_admin")
    assert created.levelno == logging.INFO
    assert created.getMessage().startswith("Admin user created: username 'admin'")
    migrated = [record.getMessage() for record in _lines(caplog, "migrate")]
    assert migrated[0] == "Operations to perform:" and "No migrations to apply." in migrated
    assert capsys.readouterr().out == ""


@pytest.mark.django_db
def test_text_logs_and_a_stream_of_the_callers_keep_the_plain_output(
    settings: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("ensure_admin")
    assert "Admin user created" in capsys.readouterr().out
    settings.LOG_FORMAT = "json"
    given = io.StringIO()
    call_command("ensure_admin", stdout=given)
    assert "Admin user 'admin' exists" in given.getvalue()
    assert not _lines(caplog, "ensure_admin")


def test_a_line_written_in_parts_is_one_record(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tests.parts")
    stream = LogLines(logging.getLogger("tests.parts"), logging.INFO)
    stream.write("Running migrations:\n  Applying cards.0001_initial...")
    stream.flush()
    stream.write(" OK\n\nunfinished")
    stream.end()
    messages = [r.getMessage() for r in caplog.records if r.name == "tests.parts"]
    assert messages == ["Running migrations:", "Applying cards.0001_initial... OK", "unfinished"]


def test_a_refusal_is_an_error_line_and_exit_code_one(
    settings: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.LOG_FORMAT = "json"
    with pytest.raises(SystemExit) as exited:
        Backup().run_from_argv(["manage.py", "backup"])
    assert exited.value.code == 1
    (refused,) = _lines(caplog, "backup")
    assert refused.levelno == logging.ERROR
    assert refused.getMessage() == "CommandError: Give either FILE or --dir."
    assert capsys.readouterr() == ("", "")


class Failing(LoggedOutput, BaseCommand):
    def handle(self, *args: Any, **options: Any) -> None:
        raise RuntimeError("the disk is on fire")


def test_an_unexpected_failure_is_one_error_line_with_its_traceback(
    settings: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.LOG_FORMAT = "json"
    with pytest.raises(SystemExit) as exited:
        Failing().run_from_argv(["manage.py", "failing"])
    assert exited.value.code == 1
    (failed,) = _lines(caplog, "test_logged_commands")
    assert failed.levelno == logging.ERROR and failed.getMessage() == "failing failed"
    assert "RuntimeError: the disk is on fire" in caplog.text  # its traceback, in the record
    assert capsys.readouterr() == ("", "")
