"""The two log formats (``LOG_FORMAT``): JSON lines for a collector, text for a person."""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

JSON_FIELDS = ("asctime", "levelname", "name", "message")
RENAMED = {"asctime": "time", "levelname": "level", "name": "logger"}


def json_formatter() -> logging.Formatter:
    """One JSON object a line: time, level, logger, message, the context's ids
    (``config.logcontext``) and any ``extra`` fields (an event's name and ids)."""
    return JsonFormatter(list(JSON_FIELDS), rename_fields=RENAMED, json_ensure_ascii=False)


def text_formatter() -> logging.Formatter:
    return logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
