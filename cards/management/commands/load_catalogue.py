"""`manage.py load_catalogue`: load the card catalogue file into the database (idempotent)."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cards.catalogue import CATALOGUE_PATH, CatalogueError, Counts, catalogue_load
from infra.commands import LocalizedCommand, LoggedOutput


class Command(LoggedOutput, LocalizedCommand):
    help = gettext_noop(
        "Load cards/data/catalogue.json. Rows equal to the file are left alone; rows edited in "
        "admin (curated) are skipped unless --force."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--file", type=Path, default=CATALOGUE_PATH, help=gettext_noop("Catalogue JSON.")
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help=gettext_noop("Overwrite curated rows with the file's values."),
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help=gettext_noop("Say what would change; change nothing."),
        )
        parser.add_argument(
            "--only-its-sets",
            action="store_true",
            help=gettext_noop(
                "A file of some sets (export_sets): do not list other sets' rows as missing."
            ),
        )

    def handle(self, *args: object, **options: object) -> None:
        path, verbosity = options["file"], options["verbosity"]
        assert isinstance(path, Path) and isinstance(verbosity, int)
        dry_run = bool(options["dry_run"])
        try:
            report = catalogue_load(
                path=path,
                force=bool(options["force"]),
                dry_run=dry_run,
                only_its_sets=bool(options["only_its_sets"]),
            )
        except (CatalogueError, OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        if dry_run:
            self.stdout.write(_("Dry run: nothing was changed. It would do this:"))
        detailed = dry_run or verbosity > 1
        self._print(_("Card sets"), report.sets, detailed=detailed)
        self._print(_("Cards"), report.cards, detailed=detailed)

    def _print(self, label: str, counts: Counts, *, detailed: bool) -> None:
        """The counts; with ``detailed``, also each row created and each field changed."""
        self.stdout.write(
            _("%(label)s: %(summary)s") % {"label": label, "summary": counts.summary()}
        )
        if detailed:
            self._print_changes(counts)
        for key in counts.skipped:
            self.stdout.write(
                "  "
                + _("skipped, curated in admin: %(key)s (use --force to overwrite)") % {"key": key}
            )
        for key in counts.not_in_file:
            self.stdout.write(
                "  " + _("in the database but not in the file (kept): %(key)s") % {"key": key}
            )

    def _print_changes(self, counts: Counts) -> None:
        for key in counts.new:
            self.stdout.write("  " + _("new: %(key)s") % {"key": key})
        for key, changes in counts.changes.items():
            self.stdout.write("  " + _("changed: %(key)s") % {"key": key})
            for change in changes:
                self.stdout.write(f"    {change}")
