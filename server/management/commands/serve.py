"""``manage.py serve``: ``./scripts/serve``'s steps in one Django start, then Daphne in-process.

The steps are compiling the catalogues, migrating, loading the cards and checking the admin
user. Run as separate commands, each costs a Django start of its own. That is 5-10 s of CPU each
on a loaded machine. Here they share one. Each prints what it does and how long it took. Daphne
then serves from the same process (``server.serve``: pool opened, the embedded clock started).
"""

from __future__ import annotations

import time
from argparse import ArgumentParser
from collections.abc import Callable

from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, reloader

from infra.catalogues import LOCALE_DIR
from infra.commands import LocalizedCommand

Step = tuple[str, Callable[[], object]]


class Command(LocalizedCommand):
    help = gettext_noop(
        "Compile, migrate, load the cards and the admin user in one start, then run Daphne."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--setup-only",
            action="store_true",
            help=gettext_noop("Prepare everything, do not serve."),
        )

    def handle(self, *args: object, **options: object) -> None:
        started = time.perf_counter()
        for label, step in self._steps():
            self._timed(label, step)
        if options["setup_only"]:
            return
        host, port = options["host"], options["port"]
        assert isinstance(host, str) and isinstance(port, int)  # as add_arguments declares them
        self._serve(host, port, time.perf_counter() - started)

    def _steps(self) -> list[Step]:
        quiet = {"stdout": self.stdout, "verbosity": 0}
        return [
            (_("Compiling the translations"), self._compile),
            (_("Applying migrations"), lambda: call_command("migrate", interactive=False, **quiet)),
            (_("Loading the card catalogue"), lambda: call_command("load_catalogue", **quiet)),
            (_("Checking the admin user"), lambda: call_command("ensure_admin", **quiet)),
        ]

    def _compile(self) -> None:
        call_command("compile_catalogues", stdout=self.stdout)
        # This process may have read the catalogues before they were compiled (a first start):
        # drop its cached translations, as Django's autoreloader does when a .mo changes.
        language = translation.get_language()
        reloader.translation_file_changed(None, LOCALE_DIR / "changed.mo")
        translation.activate(language)

    def _timed(self, label: str, step: Callable[[], object]) -> None:
        self.stdout.write(f"{label}…")
        began = time.perf_counter()
        step()
        seconds = time.perf_counter() - began
        done = _("%(step)s: done in %(seconds).1f s")
        self.stdout.write(done % {"step": label, "seconds": seconds})

    def _serve(self, host: str, port: int, setup_seconds: float) -> None:
        from server.daphne_server import CodedCommandLine  # coded refusals, access lines logged

        message = _(
            "Set up in %(seconds).1f s. Serving on http://%(host)s:%(port)d/ "
            "(admin at /admin/, API docs at /api/v1/docs/)"
        )
        self.stdout.write(message % {"seconds": setup_seconds, "host": host, "port": port})
        translation.deactivate()  # requests and sockets pick their own language, not the shell's
        CodedCommandLine().run(["-b", host, "-p", str(port), "server.serve:application"])
