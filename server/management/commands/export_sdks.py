"""``manage.py export_sdks [--check]``: the Python and TypeScript SDKs from the committed schemas.

With no option, it regenerates the generated files of ``sdk/python/challengers_client`` and
``sdk/typescript/src``. It reads ``schema/openapi.yaml`` and ``schema/asyncapi.yaml``, whatever
they hold. So run ``export_schemas`` first after a change to the code.

``--check`` regenerates into a temporary folder. It exits 1 with a unified diff when a committed
file differs.

It needs the test extra (datamodel-code-generator, ruff) and node 20+ with npm. It runs
``npm ci`` in ``sdk/typescript`` on first use. See docs/contract.md, "SDKs".
"""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.commands import LocalizedCommand
from server import sdks


class Command(LocalizedCommand):
    help = gettext_noop(
        "Regenerate sdk/ from schema/; --check: exit 1 if sdk/ is stale (docs/contract.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help=gettext_noop("Exit 1 if sdk/ is stale.")
        )

    def handle(self, *args: object, **options: object) -> None:
        try:
            if options["check"]:
                self._check()
                return
            for path in sdks.write():
                self.stdout.write(str(path.relative_to(sdks.ROOT)))
        except sdks.GeneratorMissing as missing:
            raise CommandError(str(missing)) from missing

    def _check(self) -> None:
        diff = sdks.stale()
        if diff:
            self.stdout.write(diff)
            self.stderr.write(_("sdk/ differs from schema/: run manage.py export_sdks."))
            raise SystemExit(1)
        self.stdout.write(_("sdk/ is up to date."))
