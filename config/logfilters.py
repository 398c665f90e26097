"""Logging filters."""

from __future__ import annotations

import logging

QUIET_TASKS = ("tournaments.tasks.sweep_deadlines", "tournaments.tasks.reconcile")


class QuietClock(logging.Filter):
    """Drop the success line of the clock's sweep (one every two seconds would drown the log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        message = record.getMessage()
        return not any(name in message and "succeeded" in message for name in QUIET_TASKS)
