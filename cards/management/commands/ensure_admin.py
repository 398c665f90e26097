"""`manage.py ensure_admin`: make sure a superuser can log in to admin, where cards are curated.

Creates user `admin` if missing. Its password comes from ADMIN_PASSWORD, or is generated and
printed once. For an existing user, a set ADMIN_PASSWORD resets its password. Otherwise nothing
changes. Safe to run at every start.
"""

from __future__ import annotations

import os
import secrets
from argparse import ArgumentParser

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.env import secret_value
from infra.commands import LocalizedCommand, LoggedOutput


class Command(LoggedOutput, LocalizedCommand):
    help = gettext_noop(
        "Create the admin superuser if missing (password: ADMIN_PASSWORD or generated)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args: object, **options: object) -> None:
        username = options["username"]
        assert isinstance(username, str)
        # ADMIN_PASSWORD, or ADMIN_PASSWORD_FILE (compose's /run/secrets/admin_password).
        password = secret_value(os.environ, "ADMIN_PASSWORD")
        users = get_user_model()._default_manager
        user = users.filter(username=username).first()
        if user is None:
            chosen = password or secrets.token_urlsafe(12)
            users.create_superuser(username=username, email="", password=chosen)
            shown = _("from ADMIN_PASSWORD") if password else chosen
            self.stdout.write(
                _("Admin user created: username %(username)r, password %(password)s")
                % {"username": username, "password": shown}
            )
        elif password:
            user.set_password(password)
            user.save(update_fields=["password"])
            self.stdout.write(
                _("Admin user %(username)r: password reset from ADMIN_PASSWORD.")
                % {"username": username}
            )
        else:
            self.stdout.write(
                _(
                    "Admin user %(username)r exists; password unchanged "
                    "(set ADMIN_PASSWORD to reset it)."
                )
                % {"username": username}
            )
