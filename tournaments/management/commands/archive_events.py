"""``manage.py archive_events --older-than DAYS``: pack old finished tournaments' event logs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.services.archive import archive_finished


class Command(BaseCommand):
    help = (
        "Move the event logs (and their matches' events) of tournaments finished or cancelled "
        "more than DAYS days ago into compressed archive rows; replays and verify/ still serve "
        "them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than", type=int, required=True, metavar="DAYS", help="0 = every finished one."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days: int = options["older_than"]
        if days < 0:
            raise CommandError("--older-than must be 0 days or more.")
        done = archive_finished(older_than_days=days)
        self.stdout.write(
            f"Archived {done.tournaments} tournament(s): {done.log_rows} log rows and "
            f"{done.match_event_rows} match event rows packed."
        )
