"""Running PostgreSQL's own tools (pg_dump, pg_restore) on the configured database."""

from __future__ import annotations

import os
import shutil
import subprocess

from django.core.management.base import CommandError
from django.db import connection
from django.utils.translation import gettext as _


def require_postgres(tool: str) -> str:
    """The path of ``tool``, or a clear refusal: not PostgreSQL, or no tool."""
    if connection.vendor != "postgresql":
        raise CommandError(
            _("%(tool)s needs PostgreSQL (DATABASE_URL); this is %(vendor)s.")
            % {"tool": tool, "vendor": connection.vendor}
        )
    found = shutil.which(tool)
    if found is None:
        raise CommandError(
            _("%(tool)s is not installed (the PostgreSQL client tools).") % {"tool": tool}
        )
    return found


def connection_args(settings: dict[str, object]) -> tuple[list[str], dict[str, str]]:
    """Host, port and user as arguments; the password in the environment, never argv."""
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            args += [flag, str(settings[key])]
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    return args, env


def run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CommandError(
            _("%(tool)s failed (%(code)s): %(output)s")
            % {"tool": command[0], "code": done.returncode, "output": done.stderr.strip()}
        )
