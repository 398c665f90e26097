"""``manage.py migrate``: Django's, its report logged line by line when the logs are JSON
(``infra.commands.LoggedOutput``), as compose's ``init`` runs it."""

from __future__ import annotations

from django.core.management.commands import migrate

from infra.commands import LoggedOutput


class Command(LoggedOutput, migrate.Command):
    pass
