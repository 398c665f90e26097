"""`manage.py export_sets NAME [NAME ...]`: card sets as a catalogue file, to edit and import."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cards.models import CardSet
from cards.setfiles import sets_export
from infra.commands import LocalizedCommand


class Command(LocalizedCommand):
    help = gettext_noop(
        "Write card sets and their cards in the catalogue file's format (to standard output or "
        "--out); import them again with load_catalogue --file F --only-its-sets."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("names", nargs="+", help=gettext_noop("Card set names."))
        parser.add_argument(
            "--out", type=Path, help=gettext_noop("The file to write (default: stdout).")
        )

    def handle(self, *args: object, **options: object) -> None:
        names = options["names"]
        assert isinstance(names, list)
        found = list(CardSet.objects.filter(name__in=names))
        unknown = sorted(set(names) - {card_set.name for card_set in found})
        if unknown:
            raise CommandError(_("No card set named %(names)s.") % {"names": ", ".join(unknown)})
        text = json.dumps(sets_export(found), ensure_ascii=False, indent=2) + "\n"
        out = options["out"]
        if out is None:
            self.stdout.write(text, ending="")
        else:
            assert isinstance(out, Path)
            out.write_text(text, encoding="utf-8")
