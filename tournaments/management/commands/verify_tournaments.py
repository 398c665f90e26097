"""``manage.py verify_tournaments``: check every finished tournament as ``verify/`` does.

It checks the seed commitment and the trophy stacks, and replays each match from its stored events.
It exits 1 if one fails. The restore drill runs it against a restored database.
"""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from tournaments.models import Status, Tournament
from tournaments.services.fairness import tournament_verify


class Command(LocalizedCommand):
    help = gettext_noop(
        "Verify every finished tournament (replaying each match); exit 1 if any check fails."
    )

    def handle(self, *args: object, **options: object) -> None:
        ids = list(
            Tournament.objects.filter(status=Status.FINISHED)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        failed = [tid for tid in ids if not tournament_verify(tournament_id=tid).ok]
        if failed:
            raise CommandError(
                ngettext(
                    "%(failed)d of %(count)d tournament fails: %(ids)s",
                    "%(failed)d of %(count)d tournaments fail: %(ids)s",
                    len(ids),
                )
                % {"failed": len(failed), "count": len(ids), "ids": failed}
            )
        self.stdout.write(
            ngettext(
                "Verified %(count)d finished tournament: all ok.",
                "Verified %(count)d finished tournaments: all ok.",
                len(ids),
            )
            % {"count": len(ids)}
        )
