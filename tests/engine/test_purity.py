"""The engine is pure: it imports only the standard library."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import matches.engine

ROOT = Path(__file__).resolve().parents[2]


def engine_modules() -> list[str]:
    path = matches.engine.__path__
    names = [m.name for m in pkgutil.iter_modules(path, "matches.engine.")]
    return [n for n in names if n != "matches.engine.__main__"]


def test_no_engine_module_imports_django_or_any_third_party_package() -> None:
    code = (
        "import sys, importlib\n"
        f"for name in {engine_modules()!r}: importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'rest_framework', 'strawberry', 'channels', 'celery', 'redis'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_every_engine_module_is_checked() -> None:
    assert "matches.engine.match" in engine_modules()
    assert "matches.engine.effects" in engine_modules()
