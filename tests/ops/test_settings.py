"""The operations settings as ``config.env`` reads them: defaults, and bad values refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import read_environment

PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "example.org"}


def test_logs_are_text_while_debugging_and_json_in_production() -> None:
    assert read_environment({}).log_format == "text"
    assert read_environment(PRODUCTION).log_format == "json"
    assert read_environment({"LOG_FORMAT": "JSON"}).log_format == "json"
    assert read_environment({**PRODUCTION, "LOG_FORMAT": "text"}).log_format == "text"


def test_a_log_format_that_is_neither_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT must be json or text"):
        read_environment({"LOG_FORMAT": "xml"})


def test_the_metrics_token_is_unset_unless_given() -> None:
    assert read_environment({}).metrics_token is None
    assert read_environment({"METRICS_TOKEN": " s3cret "}).metrics_token == "s3cret"


def test_event_logs_are_archived_after_30_days_unless_told_otherwise() -> None:
    assert read_environment({}).event_archive_days == 30
    assert read_environment({"EVENT_ARCHIVE_DAYS": "7"}).event_archive_days == 7
    assert read_environment({"EVENT_ARCHIVE_DAYS": "off"}).event_archive_days is None
    with pytest.raises(ImproperlyConfigured, match="EVENT_ARCHIVE_DAYS"):
        read_environment({"EVENT_ARCHIVE_DAYS": "-3"})
