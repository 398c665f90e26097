"""``manage.py backup FILE``: the whole database as one ``pg_dump`` archive (custom format).

``manage.py backup --dir DIR [--keep N] [--keep-days D]``: the same into ``DIR`` under a name
holding its UTC time, then the dumps beyond the newest ``N`` or older than ``D`` days deleted
(never the newest): the compose file's ``backup`` service runs it on a schedule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from config.backups import dump_path, dumps_to_prune
from config.commands import LocalizedCommand
from config.pgtools import connection_args, require_postgres, run


class Command(LocalizedCommand):
    help = "Dump the database to FILE with pg_dump (custom format, for manage.py restore)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="Where to write the dump.")
        parser.add_argument("--dir", help="Write a dump named by its time here, and prune.")
        parser.add_argument("--keep", type=int, default=14, help="With --dir: dumps kept.")
        parser.add_argument(
            "--keep-days", type=int, default=30, help="With --dir: days a dump is kept."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if bool(options["file"]) == bool(options["dir"]):
            raise CommandError(_("Give either FILE or --dir."))
        if options["dir"]:
            self._into_folder(Path(options["dir"]), options["keep"], options["keep_days"])
        else:
            self._dump(Path(options["file"]))

    def _into_folder(self, folder: Path, keep: int, keep_days: int) -> None:
        if keep < 1 or keep_days < 1:
            raise CommandError(_("--keep and --keep-days must be 1 or more."))
        now = timezone.now()
        target = dump_path(folder, now)
        partial = target.with_name(target.name + ".partial")
        self._dump(partial)
        partial.rename(target)
        for old in dumps_to_prune(folder, keep=keep, keep_days=keep_days, now=now):
            old.unlink()
            self.stdout.write(_("Deleted old dump %(file)s.") % {"file": old})

    def _dump(self, file: Path) -> None:
        pg_dump = require_postgres("pg_dump")
        settings = connection.settings_dict
        flags, env = connection_args(settings)
        command = [pg_dump, *flags, "--format=custom", "--no-owner", "--file", str(file)]
        run([*command, str(settings["NAME"])], env)
        self.stdout.write(
            _("Dumped database %(name)s to %(file)s.") % {"name": settings["NAME"], "file": file}
        )
