"""Which engine runs: the modules compiled by mypyc (``scripts/build_engine.py``) or these.

The build puts C extensions of the ``COMPILED`` modules under ``build/engine/`` (never committed).
Its stamp digests the sources it compiled. ``matches.engine`` checks the stamp against today's
sources. If it matches, it puts that directory in front of its own (``__path__``). Then
``import matches.engine.match`` loads the compiled module. Otherwise it loads the ``.py`` files,
unchanged. That happens with no build, a build of other sources, another interpreter, or
``CHALLENGERS_PURE_ENGINE=1``. Both play the same matches, event for event
(``tests/engine/test_native.py``).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_DIR = PACKAGE_DIR.parents[1] / "build" / "engine"
COMPILED_DIR = BUILD_DIR / "matches" / "engine"
STAMP = BUILD_DIR / "STAMP"
PURE_ENV = "CHALLENGERS_PURE_ENGINE"
# The compiled modules: those a match runs through. Python stay ``cards`` (its ``UnknownCard``
# subclasses ``KeyError``; it finds the catalogue next to its own file), ``events`` (its
# ``TypedDict`` shapes are read at run time; the fast path builds no event) and ``policies``
# (a policy may subclass ``DefaultPolicy``; a compiled class takes no Python subclass).
COMPILED = ("chance", "codes", "effects", "match", "model", "questions", "replay", "table")


def source_digest() -> str:
    """The digest of the compiled sources and this interpreter's extension ABI."""
    digest = hashlib.sha256(importlib.machinery.EXTENSION_SUFFIXES[0].encode())
    for name in COMPILED:
        digest.update(f"\0{name}\0".encode())
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def pure_requested() -> bool:
    """Whether ``CHALLENGERS_PURE_ENGINE`` asks for the pure-Python modules."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def build_current() -> bool:
    """Whether ``build/engine`` holds this interpreter's build of today's sources."""
    try:
        built = STAMP.read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return built == source_digest()


def compiled_dir() -> Path | None:
    """The current compiled build's directory, or ``None`` (pure Python)."""
    return None if pure_requested() or not build_current() else COMPILED_DIR


def kind() -> str:
    """``"compiled"`` if ``matches.engine.match`` came from the mypyc build.

    Else ``"pure"``."""
    import matches.engine.match

    origin = matches.engine.match.__file__ or ""
    return "compiled" if origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"
