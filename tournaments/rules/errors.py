"""The typed, coded error every tournament rule raises when an action is not allowed."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An action the rules (or the phase) forbid. ``code`` is stable; ``message`` is for people."""

    status = 409

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class OptionError(RuleError):
    """Tournament options the game does not allow (a bad request rather than a conflict)."""

    status = 400
