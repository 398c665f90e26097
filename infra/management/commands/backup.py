"""``manage.py backup FILE``: the whole database as one ``pg_dump`` archive (custom format).

``manage.py backup --dir DIR [--keep-daily N] [--keep-weekly M]`` writes the same into ``DIR``.
The dump's name holds its UTC time. Then the dumps retention lets go are deleted. Kept are the
newest, and the newest of each of the last ``N`` days and ``M`` weeks that have one
(``infra/backups.py``). Compose's ``backup`` service runs it on a schedule.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError, CommandParser
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.backups import dump_path, dumps_to_prune
from infra.commands import LocalizedCommand, LoggedOutput
from infra.pgtools import connection_args, require_postgres, run


class Command(LoggedOutput, LocalizedCommand):
    help = gettext_noop(
        "Dump the database to FILE with pg_dump (custom format, for manage.py restore)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help=gettext_noop("Where to write the dump."))
        parser.add_argument(
            "--dir", help=gettext_noop("Write a dump named by its time here, and prune.")
        )
        parser.add_argument(
            "--keep-daily",
            type=int,
            default=7,
            help=gettext_noop("With --dir: days whose newest dump is kept."),
        )
        parser.add_argument(
            "--keep-weekly",
            type=int,
            default=4,
            help=gettext_noop("With --dir: weeks whose newest is kept."),
        )

    def handle(self, *args: object, **options: object) -> None:
        file, folder = options["file"], options["dir"]
        if bool(file) == bool(folder):
            raise CommandError(_("Give either FILE or --dir."))
        if isinstance(folder, str):
            daily, weekly = options["keep_daily"], options["keep_weekly"]
            assert isinstance(daily, int) and isinstance(weekly, int)  # argparse's type=int
            self._into_folder(Path(folder), daily, weekly)
        else:
            assert isinstance(file, str)
            self._dump(Path(file))

    def _into_folder(self, folder: Path, daily: int, weekly: int) -> None:
        if daily < 0 or weekly < 0:
            raise CommandError(_("--keep-daily and --keep-weekly must be 0 or more."))
        target = dump_path(folder, timezone.now())
        partial = target.with_name(target.name + ".partial")
        self._dump(partial)
        partial.rename(target)
        for old in dumps_to_prune(folder, daily=daily, weekly=weekly):
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
