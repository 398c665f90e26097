"""``manage.py compile_catalogues``: the gettext catalogues under ``locale/`` compiled to ``.mo``
(``compilemessages`` without GNU gettext's ``msgfmt``); the two scripts run it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from config.catalogues import compile_catalogues


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/*.po to .mo (only those changed since)."

    def handle(self, *args: Any, **options: Any) -> None:
        written = compile_catalogues()
        self.stdout.write(f"{len(written)} catalogue(s) compiled.")
