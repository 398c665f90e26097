"""The two log formats (``LOG_FORMAT``): JSON lines for a collector, text for a person.

Both write the time in UTC, whatever the host's zone. It is ISO 8601 with milliseconds and ``Z``
(``2026-12-06T18:31:33.137Z``). So lines from several containers sort and compare unchanged."""

from __future__ import annotations

import logging
import logging.config
from datetime import UTC, datetime

from pythonjsonlogger.json import JsonFormatter

JSON_FIELDS = ("asctime", "levelname", "name", "message")
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}


def utc_time(created: float) -> str:
    """``created`` (seconds since the epoch) as ``YYYY-MM-DDTHH:MM:SS.mmmZ``."""
    moment = datetime.fromtimestamp(created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class UtcJsonFormatter(JsonFormatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return utc_time(record.created)


class UtcTextFormatter(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return utc_time(record.created)


def json_formatter() -> logging.Formatter:
    """One JSON object a line.

    It holds time, level, logger, message and the context's ids (``infra.logcontext``). It adds
    any ``extra`` fields, such as an event's name and ids."""
    return UtcJsonFormatter(list(JSON_FIELDS), rename_fields=RENAMED, json_ensure_ascii=False)


def text_formatter() -> logging.Formatter:
    return UtcTextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")


def configure_from_settings() -> None:
    """Apply ``LOGGING`` now, and log Python's warnings through it.

    This is for a process whose first lines come before Django's own setup. Examples: gunicorn's
    master, a Celery worker's start checks."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    logging.captureWarnings(True)
