"""``manage.py card_stats_recount``: rebuild the card statistics from stored play."""

from __future__ import annotations

import time

from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from tournaments.services.cardstats import card_stats_recount


class Command(LocalizedCommand):
    help = gettext_noop(
        "Rebuild every card statistics row from the stored matches and finished Deck Phases "
        "(the figures kept while playing must come out the same)."
    )

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        written = card_stats_recount()
        seconds = time.perf_counter() - started
        self.stdout.write(
            ngettext(
                "%(count)d card statistics row rebuilt in %(seconds).1f s.",
                "%(count)d card statistics rows rebuilt in %(seconds).1f s.",
                written,
            )
            % {"count": written, "seconds": seconds}
        )
