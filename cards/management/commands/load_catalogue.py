"""`manage.py load_catalogue`: load the card catalogue file into the database (idempotent)."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cards.catalogue import CATALOGUE_PATH, CatalogueError, Counts, catalogue_load


class Command(BaseCommand):
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
        self._print("Card sets", report.sets)
        self._print("Cards", report.cards)

    def _print(self, label: str, counts: Counts) -> None:
        self.stdout.write(f"{label}: {counts.summary()}")
        for key in counts.skipped:
            self.stdout.write(f"  skipped, curated in admin: {key} (use --force to overwrite)")
        for key in counts.not_in_file:
            self.stdout.write(f"  in the database but not in the file (kept): {key}")
