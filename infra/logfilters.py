"""Logging filters."""

from __future__ import annotations

import logging
import re

QUIET_TASKS = ("tournaments.tasks.sweep_deadlines", "tournaments.tasks.reconcile")


class QuietClock(logging.Filter):
    """Drop the success line of the clock's sweep.

    One every two seconds would drown the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        return not any(name in message and "succeeded" in message for name in QUIET_TASKS)


# What a token looks like where it could be logged: a query parameter (``?token=…``,
# ``access_token=…``), the stream's ``bearer.<token>`` subprotocol, an ``Authorization`` value.
TOKEN_PATTERNS = (
    (re.compile(r"(token=)[^&\s\"'#;,]+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(bearer\.)[A-Za-z0-9_~.\-]+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"\b(Bearer|Token)(\s+)[A-Za-z0-9_~.+/\-]{16,}=*"), r"\1\2[redacted]"),
)
# The attributes every record has: the rest are ``extra`` fields, written out by the formatter.
STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def redact(text: str) -> str:
    """``text`` with every token value replaced by ``[redacted]``."""
    for pattern, replacement in TOKEN_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactTokens(logging.Filter):
    """Mask tokens in every line the handler writes.

    That is the message, ``extra`` fields and traceback. Tokens turn up in a URL's deprecated
    ``?token=``, Daphne's access line, a subprotocol."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed call: the formatter reports it
            return True
        if redact(message) != message:
            record.msg, record.args = redact(message), None
        for name, value in list(vars(record).items()):
            if name not in STANDARD and not isinstance(value, int | float | None):
                # An object (Django's ``request``) is written as its text: a URL, query and all.
                text = str(value)
                if redact(text) != text:
                    setattr(record, name, redact(text))
        if record.exc_info:
            # The formatters write exc_text when there is no exc_info (JSON's and text's alike).
            record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True
