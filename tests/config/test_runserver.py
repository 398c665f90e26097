"""Daphne's app is installed for ``runserver`` alone: that command stays the ASGI server
(WebSockets too), and every other start skips Twisted's reactor."""

from __future__ import annotations

import subprocess
import sys

from tests.live_server import ROOT

PROBE = """
import sys, django
from django.core.management import get_commands
django.setup()
print(get_commands()["runserver"], "twisted.internet.reactor" in sys.modules)
"""


def _started(*argv: str) -> list[str]:
    """Which app's ``runserver`` a Django start with ``argv`` has, and whether it loaded Twisted."""
    return subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[-2:]


def test_only_runserver_loads_daphne() -> None:
    assert _started("runserver") == ["daphne", "True"]
    command, twisted = _started("migrate")
    assert command != "daphne"
    assert twisted == "False"
