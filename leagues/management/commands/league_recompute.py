"""``manage.py league_recompute SLUG``: rebuild a league's results, standings and ratings."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from infra.errors import ApplicationError
from leagues.models import League
from leagues.services.recording import league_recompute


class Command(LocalizedCommand):
    help = gettext_noop(
        "Replay a league's recorded tournaments in their order: the same rows as recorded, and "
        "bot members split by strength where an older recording merged them. Refused, and "
        "nothing changed, if it would move a closed season's results or ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=gettext_noop("The league's slug."))

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.filter(slug=options["slug"]).first()
        if league is None:
            raise CommandError(_("No league has the slug %(slug)r.") % {"slug": options["slug"]})
        try:
            count = league_recompute(league_id=league.pk)
        except ApplicationError as refused:  # season_closed: rolled back
            raise CommandError(f"{refused.message} ({refused.code})") from refused
        self.stdout.write(
            ngettext(
                "Replayed %(count)d tournament of %(league)s.",
                "Replayed %(count)d tournaments of %(league)s.",
                count,
            )
            % {"count": count, "league": league.slug}
        )
