"""``manage.py retry_failed_matches [ID …]``: replay failed matches once fixed."""

from __future__ import annotations

from django.core.management.base import CommandParser
from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from matches.models import Match, MatchStatus
from tournaments.services.matchplay import match_retry


class Command(LocalizedCommand):
    help = gettext_noop("Queue failed matches (all of them, or the ids given) to be played again.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "ids", nargs="*", type=int, help=gettext_noop("Match ids (default: every failed one).")
        )

    def handle(self, *args: object, **options: object) -> None:
        failed = Match.objects.filter(status=MatchStatus.FAILED)
        chosen = options["ids"]
        if chosen:
            assert isinstance(chosen, list)
            failed = failed.filter(pk__in=chosen)
        ids = list(failed.values_list("pk", flat=True))
        retried = [match_id for match_id in ids if match_retry(match_id=match_id)]
        self.stdout.write(
            ngettext(
                "Queued %(count)d failed match again: %(ids)s",
                "Queued %(count)d failed matches again: %(ids)s",
                len(retried),
            )
            % {"count": len(retried), "ids": retried}
        )
