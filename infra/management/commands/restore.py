"""``manage.py restore FILE``: load a ``manage.py backup`` dump with ``pg_restore``.

``--into NAME`` restores into a new database. ``--replace`` replaces the configured one."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.db import connection
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from psycopg import sql

from infra.commands import LocalizedCommand, LoggedOutput
from infra.pgtools import connection_args, require_postgres, run


class Command(LoggedOutput, LocalizedCommand):
    help = gettext_noop(
        "Restore a dump made by manage.py backup: into a new database (--into NAME, created "
        "here) or over the configured database (--replace: its tables are dropped first)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help=gettext_noop("A dump written by manage.py backup."))
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument(
            "--into", metavar="NAME", help=gettext_noop("Create database NAME and restore there.")
        )
        target.add_argument(
            "--replace",
            action="store_true",
            help=gettext_noop("Replace the configured database's contents."),
        )

    def handle(self, *args: object, **options: object) -> None:
        pg_restore = require_postgres("pg_restore")
        settings = connection.settings_dict
        flags, env = connection_args(settings)
        command = [pg_restore, *flags, "--no-owner", "--exit-on-error"]
        into, dump = options["into"], str(options["file"])  # the file is a required argument
        if isinstance(into, str) and into:
            name = into
            _create_database(name)
        else:
            name = str(settings["NAME"])
            command += ["--clean", "--if-exists"]
        run([*command, "--dbname", name, dump], env)
        self.stdout.write(
            _("Restored %(file)s into database %(name)s.") % {"file": dump, "name": name}
        )


def _create_database(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if cursor.fetchone():
            raise CommandError(
                _("Database %(name)s exists; --into takes a new name.") % {"name": name}
            )
        cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)).as_string())
