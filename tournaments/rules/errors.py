"""The typed, coded error every tournament rule raises when an action is not allowed."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for the gettext catalogues without importing Django.

    ``makemessages`` reads the name. The rules stay pure. The message is translated where it is
    rendered.
    """
    return message


class RuleError(Exception):
    """An action the rules (or the phase) forbid.

    ``code`` is stable; ``message`` is for people. ``template`` is the English text. It may name
    ``details`` as ``%(name)s``. The transports translate the template, then fill it in. See
    ``tournaments.services.common.rule_errors``.
    """

    status = 409

    def __init__(self, code: str, template: str, **details: object) -> None:
        self.code = code
        self.template = template
        self.details = details
        self.message = template % details if "%(" in template else template
        super().__init__(self.message)


class OptionError(RuleError):
    """Tournament options the game does not allow.

    It is a bad request rather than a conflict.
    """

    status = 400
