"""``manage.py backup FILE``: the whole database as one ``pg_dump`` archive (custom format)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import connection

from config.pgtools import connection_args, require_postgres, run


class Command(BaseCommand):
    help = "Dump the database to FILE with pg_dump (custom format, for manage.py restore)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="Where to write the dump.")

    def handle(self, *args: Any, **options: Any) -> None:
        pg_dump = require_postgres("pg_dump")
        settings = connection.settings_dict
        flags, env = connection_args(settings)
        command = [pg_dump, *flags, "--format=custom", "--no-owner", "--file", options["file"]]
        run([*command, str(settings["NAME"])], env)
        self.stdout.write(f"Dumped database {settings['NAME']} to {options['file']}.")
