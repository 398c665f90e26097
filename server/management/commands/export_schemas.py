"""``manage.py export_schemas [--check | --breaking | --release]``: the public contract as files.

With no option, it writes ``schema/openapi.yaml``, ``schema/schema.graphql`` and
``schema/asyncapi.yaml`` from the code (``server.contract``).

- ``--check`` exits 1 and prints a unified diff when the committed files differ from what the
  code serves.
- ``--breaking`` lists the breaking changes from ``schema/released/`` to the committed files. It
  exits 1 when there is one. ``--no-node`` uses the Python fallback instead of the node tools.
- ``--release`` copies the committed files to ``schema/released/``.

See docs/contract.md.
"""

from __future__ import annotations

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from infra.commands import LocalizedCommand
from server import contract


class Command(LocalizedCommand):
    help = gettext_noop(
        "Write schema/ from the code; --check, --breaking or --release (docs/contract.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--check", action="store_true", help=gettext_noop("Exit 1 if schema/ is stale.")
        )
        group.add_argument(
            "--breaking",
            action="store_true",
            help=gettext_noop("Breaking changes since schema/released/."),
        )
        group.add_argument(
            "--release", action="store_true", help=gettext_noop("Copy to schema/released/.")
        )
        parser.add_argument(
            "--no-node",
            action="store_true",
            help=gettext_noop("--breaking without the node tools."),
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["check"]:
            self._check()
        elif options["breaking"]:
            self._breaking(node=not options["no_node"])
        elif options["release"]:
            for path in contract.release():
                self.stdout.write(str(path.relative_to(contract.SCHEMA_DIR.parent)))
        else:
            for path in contract.write():
                self.stdout.write(str(path.relative_to(contract.SCHEMA_DIR.parent)))

    def _check(self) -> None:
        diff = contract.stale()
        if diff:
            self.stdout.write(diff)
            self.stderr.write(_("schema/ differs from the code: run manage.py export_schemas."))
            raise SystemExit(1)
        self.stdout.write(_("schema/ is up to date."))

    def _breaking(self, *, node: bool) -> None:
        found = contract.breaking(node=node)
        for change in found:
            self.stdout.write(str(change))
        if found:
            message = ngettext(
                "%(count)d breaking change since schema/released/.",
                "%(count)d breaking changes since schema/released/.",
                len(found),
            )
            self.stderr.write(message % {"count": len(found)})
            raise SystemExit(1)
        self.stdout.write(_("No breaking change since schema/released/."))
