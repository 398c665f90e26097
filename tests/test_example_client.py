"""``examples/play.py`` plays a whole tournament against a live server on the Python SDK
(``sdk/python``), dropping its stream on purpose to see it resume, so neither can drift.

The server is the embedded one (Daphne, the task thread, SQLite) on a temporary database and a
free port, in a subprocess, with instant match pacing and no throttling, and with DEBUG off as in
production: a program's socket sends no ``Origin``, and must be let in all the same.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import ROOT, live_server

# Four seats (eight rounds, the Final included), the stream dropped every 100 of its ~1,150 events.
PLAY_OPTIONS = ("--seats", "4", "--drop-every", "100")


@pytest.fixture
def live_server_url(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path, production=True) as url:
        yield url


def test_the_example_client_plays_a_whole_tournament_to_a_champion(live_server_url: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "play.py"), live_server_url, *PLAY_OPTIONS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Tournament ") and "Round 1: Deck Phase" in lines
    assert "Round 8: Deck Phase" in lines  # the Final at four seats
    assert lines[-1].startswith("Champion: ")
    # The SDK connected again after each drop, with ?after=<the last seq>, and missed nothing
    # (it raises on a gap in seq).
    assert sum("stream dropped after event" in line for line in lines) >= 3


def test_the_readme_links_the_examples() -> None:
    assert "examples/" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_sqlite_path_moves_the_embedded_database() -> None:
    from config.env import BASE_DIR, read_environment

    assert read_environment({}).databases["default"]["NAME"] == BASE_DIR / "db.sqlite3"
    moved = read_environment({"SQLITE_PATH": "/tmp/other.sqlite3"}).databases["default"]
    assert moved["NAME"] == Path("/tmp/other.sqlite3")


def test_the_examples_import_only_what_the_serve_command_installs() -> None:
    """``./scripts/serve`` installs the base dependencies (not the test extra): an example that
    imports anything else would not run after it. The checkout's pure cores (``matches.engine``
    and ``tournaments.rules``, no Django: tests/test_layers.py) are allowed: the verifier
    re-derives and re-plays a tournament with them; and so are the checkout's Python SDK
    (``challengers_client``) and verifier (``challengers_verify``), held to the same rule."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = {
        re.split(r"[=<>\[ ]", dep)[0].lower().replace("-", "_") for dep in project["dependencies"]
    }
    sdk = sorted((ROOT / "sdk" / "python" / "challengers_client").glob("*.py"))
    assert sdk, "the Python SDK is missing"
    verifier = sorted((ROOT / "verifier" / "challengers_verify").glob("*.py"))
    assert verifier, "the verifier is missing"
    pure = ("matches.engine", "tournaments.rules")
    for module in [*(ROOT / "examples").glob("*.py"), *sdk, *verifier]:
        for name in _imports(module):
            top = name.split(".")[0]
            if any(name == core or name.startswith(f"{core}.") for core in pure):
                continue
            allowed = {"__future__", "challengers_client", "challengers_verify"}
            assert top in sys.stdlib_module_names or top in base or top in allowed, (
                module.name,
                top,
            )


def _imports(module: Path) -> list[str]:
    """The absolute module names ``module`` imports (a relative import is its own package's)."""
    import ast

    names = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.append(node.module or "")
    return names


def test_the_readme_examples_do_not_reuse_the_serve_commands_variables() -> None:
    """``HOST`` and ``PORT`` are the serve command's: a shell example that also sets them (a
    token in ``$HOST``) would move the server of whoever pastes both."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```sh\n(.*?)```", readme, flags=re.DOTALL):
        assert not re.search(r"\$\{?(HOST|PORT)\b", block), block
