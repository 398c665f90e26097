"""`manage.py load_catalogue`: load the card catalogue file into the database (idempotent)."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from cards.catalogue import CATALOGUE_PATH, CatalogueError, Counts, catalogue_load
from config.commands import LocalizedCommand


class Command(LocalizedCommand):
    help = (
        "Load cards/data/catalogue.json. Rows equal to the file are left alone; rows edited in "
        "admin (curated) are skipped unless --force."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--file", type=Path, default=CATALOGUE_PATH, help="Catalogue JSON.")
        parser.add_argument(
            "--force", action="store_true", help="Overwrite curated rows with the file's values."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = catalogue_load(path=options["file"], force=options["force"])
        except (CatalogueError, OSError, ValueError) as error:
            raise CommandError(str(error)) from error
        self._print(_("Card sets"), report.sets)
        self._print(_("Cards"), report.cards)

    def _print(self, label: str, counts: Counts) -> None:
        self.stdout.write(
            _("%(label)s: %(summary)s") % {"label": label, "summary": counts.summary()}
        )
        for key in counts.skipped:
            self.stdout.write(
                "  "
                + _("skipped, curated in admin: %(key)s (use --force to overwrite)") % {"key": key}
            )
        for key in counts.not_in_file:
            self.stdout.write(
                "  " + _("in the database but not in the file (kept): %(key)s") % {"key": key}
            )
