"""``manage.py backup FILE``: the whole database as one ``pg_dump`` archive (custom format)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.db import connection
from django.utils.translation import gettext as _

from config.commands import LocalizedCommand
from config.pgtools import connection_args, require_postgres, run


class Command(LocalizedCommand):
    help = "Dump the database to FILE with pg_dump (custom format, for manage.py restore)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Where to write the dump.")

    def handle(self, *args: Any, **options: Any) -> None:
        pg_dump = require_postgres("pg_dump")
        settings = connection.settings_dict
        flags, env = connection_args(settings)
        command = [pg_dump, *flags, "--format=custom", "--no-owner", "--file", options["file"]]
        run([*command, str(settings["NAME"])], env)
        self.stdout.write(
            _("Dumped database %(name)s to %(file)s.")
            % {"name": settings["NAME"], "file": options["file"]}
        )
