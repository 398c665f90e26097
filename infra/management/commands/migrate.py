"""``manage.py migrate``: Django's, as compose's ``init`` runs it.

When the logs are JSON, its report is logged line by line (``infra.commands.LoggedOutput``)."""

from __future__ import annotations

from django.core.management.commands import migrate

from infra.commands import LoggedOutput


class Command(LoggedOutput, migrate.Command):
    pass
