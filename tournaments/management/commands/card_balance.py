"""``manage.py card_balance KEY --matches N``: simulate a card's balance here."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.commands import LocalizedCommand
from infra.errors import ApplicationError
from tournaments.selectors.cardstats import simulation_view
from tournaments.services.balance import card_balance_create, card_balance_run


class Command(LocalizedCommand):
    help = gettext_noop(
        'Play N paired bot matches with and without the card KEY ("Set/Name", an A, B or C '
        "design) and store the result next to its figures from stored play."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "key", help=gettext_noop('The design, "Set/Name", e.g. "Castle/Dragon".')
        )
        parser.add_argument("--matches", type=int, default=200, help=gettext_noop("Pairs to play."))
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: object, **options: object) -> None:
        key, matches, seed = options["key"], options["matches"], options["seed"]
        assert isinstance(key, str) and isinstance(matches, int) and isinstance(seed, int)
        try:
            balance = card_balance_create(key=key, matches=matches, seed=seed)
        except ApplicationError as error:
            raise CommandError(f"{error.code}: {error.message}") from error
        done = card_balance_run(balance_id=balance.pk)
        assert done is not None
        view = simulation_view(done)
        self.stdout.write(
            _(
                "%(key)s: won %(with).3f with it, %(without).3f without (%(difference)+.3f) "
                "over %(pairs)d pairs."
            )
            % {
                "key": done.key,
                "with": view.win_rate_with,
                "without": view.win_rate_without,
                "difference": view.difference,
                "pairs": done.matches,
            }
        )
