"""Safe by default: the production settings pass `check --deploy`, the compose file needs its
own SECRET_KEY, and the one-command server listens on this machine only."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
# Everything the deploy settings read; the test environment's own values are dropped.
DEPLOY_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "HTTPS",
    "HSTS_SECONDS",
    "HSTS_INCLUDE_SUBDOMAINS",
    "HSTS_PRELOAD",
    "BEHIND_PROXY",
)


def check_deploy(**variables: str) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name not in DEPLOY_VARIABLES}
    env.update({"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), **variables})
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_production_settings_pass_check_deploy() -> None:
    result = check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_behind_the_proxy_too() -> None:
    result = check_deploy(BEHIND_PROXY="true", ALLOWED_HOSTS="game.example")
    assert result.returncode == 0, result.stdout + result.stderr


def test_turning_https_off_is_what_check_deploy_warns_about() -> None:
    result = check_deploy(HTTPS="false")
    assert result.returncode != 0
    warned = {"security.W004", "security.W008", "security.W012", "security.W016"}
    assert all(code in result.stdout + result.stderr for code in warned)


def test_compose_has_no_default_secret_key() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environment = compose["x-app"]["environment"]
    assert environment["SECRET_KEY"].startswith("${SECRET_KEY:?")
    assert environment["DEBUG"] == "false"
    text = (ROOT / "docker-compose.yml").read_text()
    assert "change-me" not in text and "SECRET_KEY:-" not in text


@pytest.mark.parametrize(("host", "bound"), [(None, "127.0.0.1"), ("0.0.0.0", "0.0.0.0")])
def test_serve_listens_on_this_machine_unless_host_is_set(
    tmp_path: Path, host: str | None, bound: str
) -> None:
    """Run scripts/serve with stand-ins for the venv's programs; daphne says where it binds."""
    fake = tmp_path / "repo"
    (fake / "scripts").mkdir(parents=True)
    (fake / ".venv" / "bin").mkdir(parents=True)
    (fake / "scripts" / "serve").write_text((ROOT / "scripts" / "serve").read_text())
    (fake / "scripts" / "lib.sh").write_text("ensure_venv() { :; }\nbuild_engine() { :; }\n")
    (fake / ".venv" / "bin" / "python").write_text("#!/bin/sh\nexit 0\n")
    (fake / ".venv" / "bin" / "daphne").write_text('#!/bin/sh\necho "daphne $*"\n')
    for program in (fake / ".venv" / "bin").iterdir():
        program.chmod(0o755)
    env = {"PATH": os.environ["PATH"], **({"HOST": host} if host else {})}
    result = subprocess.run(
        ["bash", str(fake / "scripts" / "serve")], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert f"daphne -b {bound} -p 8000 config.serve:application" in result.stdout
