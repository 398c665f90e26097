"""``manage.py archive_events --older-than DAYS``: pack old finished event logs."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from tournaments.services.archive import archive_finished


class Command(LocalizedCommand):
    help = gettext_noop(
        "Move the event logs (and their matches' events) of tournaments finished or cancelled "
        "more than DAYS days ago into compressed archive rows; replays and verify/ still serve "
        "them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=int,
            required=True,
            metavar="DAYS",
            help=gettext_noop("0 = every finished one."),
        )

    def handle(self, *args: object, **options: object) -> None:
        days = options["older_than"]
        assert isinstance(days, int)
        if days < 0:
            raise CommandError(_("--older-than must be 0 days or more."))
        done = archive_finished(older_than_days=days)
        self.stdout.write(
            ngettext(
                "Archived %(count)d tournament: %(log)d log rows and %(events)d match event "
                "rows packed.",
                "Archived %(count)d tournaments: %(log)d log rows and %(events)d match event "
                "rows packed.",
                done.tournaments,
            )
            % {"count": done.tournaments, "log": done.log_rows, "events": done.match_event_rows}
        )
