"""``manage.py check_heartbeat ROLE [--name NAME]``: a container health check by heartbeat.

Exits 0 when the process has a heartbeat at most ``HEARTBEAT_STALE_SECONDS`` old. Else exits 1,
saying why. ``beat`` checks Celery beat's heartbeat. A worker writes it on running a task from beat.
So it proves the whole path beat → broker → worker → database. ``worker --name celery@HOST`` checks
that worker's clock. The clock writes it every few seconds from the worker's main process
(``infra.liveness``).
"""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.commands import LocalizedCommand
from infra.liveness import BEAT, WORKER, heartbeats, is_alive


class Command(LocalizedCommand):
    help = gettext_noop(
        "Exit 0 if the process's heartbeat is fresh (HEARTBEAT_STALE_SECONDS), else 1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", choices=[BEAT, WORKER])
        parser.add_argument(
            "--name", help=gettext_noop("A worker's node name (celery@HOST); any if omitted.")
        )

    def handle(self, *args: object, **options: object) -> None:
        role, name = str(options["role"]), options["name"]  # a role is one of the choices
        seen = [at for who, at in heartbeats(role=role) if name in (None, who)]
        if not seen:
            raise CommandError(_("No heartbeat of %(who)s yet.") % {"who": name or role})
        age = (timezone.now() - seen[0]).total_seconds()
        if not is_alive(seen[0], timezone.now()):
            raise CommandError(
                _("The last heartbeat of %(who)s is %(age).0f s old.")
                % {"who": name or role, "age": age}
            )
        self.stdout.write(_("%(who)s seen %(age).1f s ago") % {"who": name or role, "age": age})
