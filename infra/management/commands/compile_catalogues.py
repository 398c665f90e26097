"""``manage.py compile_catalogues``: compile the gettext catalogues under ``locale/`` to ``.mo``.

It is ``compilemessages`` without GNU gettext's ``msgfmt``. The two scripts run it."""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext

from infra.catalogues import compile_catalogues
from infra.commands import LocalizedCommand


class Command(LocalizedCommand):
    help = gettext_noop("Compile locale/*/LC_MESSAGES/*.po to .mo (only those changed since).")

    def handle(self, *args: object, **options: object) -> None:
        written = compile_catalogues()
        self.stdout.write(
            ngettext(
                "%(count)d catalogue compiled.", "%(count)d catalogues compiled.", len(written)
            )
            % {"count": len(written)}
        )
