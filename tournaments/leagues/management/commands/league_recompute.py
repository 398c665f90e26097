"""``manage.py league_recompute SLUG``: rebuild a league's results, standings and ratings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.leagues.models import League
from tournaments.leagues.recording import league_recompute


class Command(BaseCommand):
    help = (
        "Replay a league's recorded tournaments in their order: the same rows as recorded, and "
        "bot members split by strength where an older recording merged them."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The league's slug.")

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.filter(slug=options["slug"]).first()
        if league is None:
            raise CommandError(f"No league has the slug {options['slug']!r}.")
        count = league_recompute(league_id=league.pk)
        self.stdout.write(f"Replayed {count} tournament(s) of {league.slug}.")
