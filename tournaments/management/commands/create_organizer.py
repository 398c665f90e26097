"""``manage.py create_organizer NAME``: an organizer account and its API token.

The token is shown once.
"""

from __future__ import annotations

from django.core.management.base import CommandParser
from django.utils.translation import gettext_noop

from infra.commands import LocalizedCommand
from tournaments.services.organizers import organizer_create


class Command(LocalizedCommand):
    help = gettext_noop(
        "Create (or update) the user NAME with the tournaments.organize permission and print a "
        "new API token for `Authorization: Token <token>` (shown once; an older one stops)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help=gettext_noop("The organizer's username."))

    def handle(self, *args: object, **options: object) -> None:
        name = options["name"]
        assert isinstance(name, str)
        token = organizer_create(username=name)
        self.stdout.write(token)
