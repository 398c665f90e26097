"""Management commands that answer in the operator's language.

Django runs a command in whatever language is active. Outside a request that is none (English).
An operator's shell names its language the POSIX way. It reads ``LANGUAGE``, then ``LC_ALL``,
``LC_MESSAGES``, ``LANG`` (``zh_CN.UTF-8``, ``ru_RU.UTF-8``). ``--lang`` wins over them. A
language the server does not speak falls back to English, as do ``C`` and ``POSIX``. A command's
output must not fail for a locale. The catalogues are the server's own (``locale/``).
"""

from __future__ import annotations

import io
import logging
import os
import sys
from argparse import SUPPRESS, ArgumentParser
from collections.abc import Mapping

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from infra.i18n import UnsupportedLanguage, language_of, supported

# The POSIX order in which gettext reads the environment; LANGUAGE may list several (``ru:en``).
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ: Mapping[str, str] = os.environ) -> str:
    """The supported language the locale names, else the default."""
    for variable in LOCALE_VARIABLES:
        for name in environ.get(variable, "").split(":"):
            code = _posix_to_code(name)
            if code:
                try:
                    return language_of(code)
                except UnsupportedLanguage:
                    continue
    return settings.LANGUAGE_CODE


def _posix_to_code(name: str) -> str:
    """``zh_CN.UTF-8@euro`` → ``zh-cn``; ``C``, ``POSIX`` and empty → ``""``."""
    bare = name.split(".")[0].split("@")[0].strip()
    if bare in ("", "C", "POSIX"):
        return ""
    return bare.replace("_", "-").lower()


class LocalizedCommand(BaseCommand):
    """A command that speaks the operator's language, errors included.

    ``--lang`` or the locale environment chooses it (see the module's docstring). Its ``--help``
    is translated too. The command's ``help`` and its arguments' are marked with ``gettext_noop``.
    They are translated here, when the parser is made in that language. Django's own options keep
    their English: they are in no catalogue of ours."""

    def run_from_argv(self, argv: list[str]) -> None:
        translation.activate(environment_language())  # --help and argument errors too
        super().run_from_argv(argv)

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: object) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        _add_language_argument(parser)
        parser.description = translation.gettext(self.help) if self.help else None
        for action in parser._actions:
            if action.help and action.help != SUPPRESS:
                action.help = translation.gettext(action.help)
        return parser

    def execute(self, *args: object, **options: object) -> str | None:
        asked = options.get("output_language")
        chosen = language_of(asked) if isinstance(asked, str) and asked else environment_language()
        with translation.override(chosen):
            return super().execute(*args, **options)


def _add_language_argument(parser: ArgumentParser) -> None:
    if any("--lang" in action.option_strings for action in parser._actions):
        return  # a command with a --lang of its own (missing_translations) keeps its meaning
    parser.add_argument(
        "--lang",
        dest="output_language",
        choices=supported(),
        help=translation.gettext("The language of the output (default: from LANGUAGE/LANG)."),
    )


class LogLines(io.TextIOBase):
    """A text stream that logs each line written as one record of ``logger`` at ``level``.

    A line written in parts is one record (migrate's ``Applying …`` then ``OK``)."""

    def __init__(self, logger: logging.Logger, level: int) -> None:
        super().__init__()
        self.logger, self.level, self.partial = logger, level, ""

    def write(self, text: str) -> int:
        lines = (self.partial + text).split("\n")
        self.partial = lines.pop()
        for line in lines:
            self._log(line)
        return len(text)

    def end(self) -> None:
        """Log what is left of an unfinished line."""
        self._log(self.partial)
        self.partial = ""

    def _log(self, line: str) -> None:
        if line.strip():
            self.logger.log(self.level, line.strip())


class LoggedOutput(BaseCommand):
    """A command whose output reports what it did, such as a service's migrate or backup step.

    When the logs are JSON (``LOG_FORMAT``), the output is logged line by line. Its containers then
    write JSON lines only. Standard output goes at INFO. Errors (``CommandError``) go at ERROR. An
    unexpected exception goes at ERROR, its traceback in the one line. The logger is
    ``challengers.commands.NAME``. An output stream the caller passes is kept
    (``call_command(stdout=…)``)."""

    def _logged(self) -> bool:
        return bool(settings.LOG_FORMAT == "json")

    def _logger(self) -> logging.Logger:
        return logging.getLogger(f"challengers.commands.{type(self).__module__.rpartition('.')[2]}")

    def run_from_argv(self, argv: list[str]) -> None:
        try:
            super().run_from_argv(argv)
        except Exception:
            if not self._logged():
                raise
            self._logger().exception("%s failed", argv[1] if len(argv) > 1 else "command")
            sys.exit(1)

    def execute(self, *args: object, **options: object) -> str | None:
        if not self._logged():
            return super().execute(*args, **options)
        streams = {"stdout": logging.INFO, "stderr": logging.ERROR}
        opened = {name: LogLines(self._logger(), level) for name, level in streams.items()}
        for name, stream in opened.items():
            options[name] = options.get(name) or stream
        try:
            return super().execute(*args, **options)
        finally:
            for stream in opened.values():
                stream.end()
