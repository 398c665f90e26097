"""Safe by default: the production settings pass `check --deploy`, the compose file takes its
secrets from the environment and is ready to run unattended (restarts, health checks, a proxy
that waits for its upstreams, a non-root image), and the one-command server listens on this
machine only. There is no Docker daemon here: the tests read the files."""

from __future__ import annotations

import http.server
import os
import re
import secrets
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.test import Client

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
    "PROXY_COUNT",
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


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


APP_SERVICES = ("init", "http", "ws", "worker", "beat", "backup")
LONG_RUNNING = ("postgres", "redis", "http", "ws", "worker", "beat", "backup", "proxy")


def test_compose_has_no_default_secret_key() -> None:
    environment = compose()["x-app"]["environment"]
    assert environment["DEBUG"] == "false"
    text = (ROOT / "docker-compose.yml").read_text()
    assert "change-me" not in text and "SECRET_KEY:-" not in text
    # A file compose writes from the operator's SECRET_KEY, not interpolated into the file.
    assert compose()["secrets"]["secret_key"] == {"environment": "SECRET_KEY"}
    for name in APP_SERVICES:
        service = compose()["services"][name]
        assert service["environment"]["SECRET_KEY_FILE"] == "/run/secrets/secret_key", name
        assert "secret_key" in service["secrets"], name


def test_compose_needs_no_secret_to_be_read() -> None:
    """Compose interpolates the whole file for every command: a required variable (`${X:?}` or
    `${X?}`) anywhere would make `docker compose ps` fail without it."""
    required = re.compile(r"\$\{\w+:?\?")
    assert not [value for value in strings(compose()) if required.search(value)]


def strings(node: Any) -> list[str]:
    """Every string of a loaded YAML document, keys and values."""
    if isinstance(node, dict):
        return [s for key, value in node.items() for s in strings(key) + strings(value)]
    if isinstance(node, list):
        return [s for item in node for s in strings(item)]
    return [node] if isinstance(node, str) else []


def test_the_database_password_comes_from_the_environment() -> None:
    services = compose()["services"]
    app = services["http"]["environment"]
    assert "@" in app["DATABASE_URL"] and ":" not in app["DATABASE_URL"].split("@")[0][11:]
    assert app["DATABASE_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    postgres = services["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"]
    assert postgres == "/run/secrets/postgres_password"
    assert compose()["secrets"]["postgres_password"] == {"environment": "POSTGRES_PASSWORD"}


def test_every_service_restarts_on_its_own() -> None:
    services = compose()["services"]
    for name in LONG_RUNNING:
        assert services[name]["restart"] in {"always", "unless-stopped"}, name
    assert services["init"]["restart"] == "on-failure"  # one-shot: again only when it failed


def test_http_ws_worker_beat_and_backup_have_light_health_checks() -> None:
    services = compose()["services"]
    for name in ("http", "ws", "worker", "beat", "backup"):
        check = services[name]["healthcheck"]
        assert not check.get("disable") and check["test"][0] in {"CMD", "CMD-SHELL"}, name
        # No probe starts Django or Celery: the standard-library script only.
        probe = " ".join(check["test"][1:])
        assert probe.startswith("python deploy/healthcheck.py"), name
        assert "manage.py" not in probe and "celery" not in probe, name
    assert services["http"]["healthcheck"]["test"][-1] == "8000"
    assert services["ws"]["healthcheck"]["test"][-1] == "8001"
    for name in ("worker", "beat"):
        assert services[name]["healthcheck"]["test"][-2:] == ["--fresh", "/tmp/heartbeat"]


def test_the_app_services_are_limited_rotated_and_stopped_gracefully() -> None:
    services = compose()["services"]
    for name in ("init", "http", "ws", "worker", "beat", "backup"):
        service = services[name]
        assert service["mem_limit"] and service["cpus"], name
        assert service["logging"]["driver"] == "json-file", name
        assert set(service["logging"]["options"]) == {"max-size", "max-file"}, name
        assert service["stop_grace_period"], name


def test_secrets_reach_the_services_as_files() -> None:
    data = compose()
    env = data["services"]["http"]["environment"]
    assert "SECRET_KEY" not in env and "DATABASE_PASSWORD" not in env
    assert env["SECRET_KEY_FILE"] == "/run/secrets/secret_key"
    assert env["DATABASE_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    assert set(data["secrets"]) == {"secret_key", "postgres_password", "admin_password"}
    assert data["services"]["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"]


def test_the_proxy_waits_for_healthy_upstreams() -> None:
    depends = compose()["services"]["proxy"]["depends_on"]
    assert depends == {
        "http": {"condition": "service_healthy"},
        "ws": {"condition": "service_healthy"},
    }


def test_workers_scale_and_beat_runs_apart() -> None:
    services = compose()["services"]
    assert "--beat" not in services["worker"]["command"]
    assert " -B" not in services["worker"]["command"]
    assert services["beat"]["command"].startswith("celery -A server --quiet beat")
    for name in ("worker", "ws"):  # `--scale NAME=N` needs no fixed name or host port
        assert "container_name" not in services[name] and "ports" not in services[name]


def test_redis_keeps_its_data_on_a_volume() -> None:
    data = compose()
    redis = data["services"]["redis"]
    assert any(volume.split(":")[1] == "/data" for volume in redis["volumes"])
    assert "--appendonly yes" in redis["command"]
    assert "redisdata" in data["volumes"]


def test_the_image_runs_as_a_user_without_privileges_with_a_health_check() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    stage = lines[max(i for i, line in enumerate(lines) if line.startswith("FROM ")) :]
    users = [line.split()[1] for line in stage if line.startswith("USER ")]
    assert users and users[-1] not in {"root", "0"}
    assert any(line.startswith("HEALTHCHECK ") for line in stage)
    assert "deploy/healthcheck.py" in "\n".join(stage)
    assert "postgresql-client" in "\n".join(stage)  # pg_dump for the backup service


def test_the_proxy_passes_the_host_with_its_port() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Host $http_host;" in conf
    assert "Host $host;" not in conf


def test_the_health_probe_passes_on_any_http_answer_and_fails_on_none() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    probe = [sys.executable, str(ROOT / "deploy" / "healthcheck.py")]
    try:  # the bare handler answers 501 to every GET: an answer all the same
        port = server.server_address[1]
        assert subprocess.run([*probe, str(port)], timeout=30).returncode == 0
    finally:
        server.shutdown()
        server.server_close()
    assert subprocess.run([*probe, str(port)], timeout=30).returncode == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("host", "trusted", "status"),
    [
        ("localhost:8000", [], 302),  # what nginx passes now ($http_host)
        ("localhost", [], 403),  # $host: the port dropped, the form's Origin does not match
        ("localhost", ["http://localhost:8000"], 302),  # or CSRF_TRUSTED_ORIGINS names it
    ],
)
def test_the_admin_login_passes_csrf_behind_the_proxy(
    settings: Any, host: str, trusted: list[str], status: int
) -> None:
    settings.CSRF_TRUSTED_ORIGINS = trusted
    User.objects.create_superuser("boss", "boss@example.com", "pw-of-the-boss")
    client = Client(enforce_csrf_checks=True)
    client.get("/admin/login/", headers={"host": host})
    form = {
        "username": "boss",
        "password": "pw-of-the-boss",
        "csrfmiddlewaretoken": client.cookies["csrftoken"].value,
        "next": "/admin/",
    }
    headers = {"host": host, "origin": "http://localhost:8000"}
    response = client.post("/admin/login/", form, headers=headers)
    assert response.status_code == status


@pytest.mark.parametrize(("host", "bound"), [(None, "127.0.0.1"), ("0.0.0.0", "0.0.0.0")])
def test_serve_listens_on_this_machine_unless_host_is_set(
    tmp_path: Path, host: str | None, bound: str
) -> None:
    """Run scripts/serve with stand-ins for the venv's programs; python says where it binds."""
    fake = tmp_path / "repo"
    (fake / "scripts").mkdir(parents=True)
    (fake / ".venv" / "bin").mkdir(parents=True)
    (fake / "scripts" / "serve").write_text((ROOT / "scripts" / "serve").read_text())
    (fake / "scripts" / "lib.sh").write_text("ensure_venv() { :; }\nbuild_engine() { :; }\n")
    (fake / ".venv" / "bin" / "python").write_text('#!/bin/sh\necho "python $*"\n')
    for program in (fake / ".venv" / "bin").iterdir():
        program.chmod(0o755)
    env = {"PATH": os.environ["PATH"], **({"HOST": host} if host else {})}
    result = subprocess.run(
        ["bash", str(fake / "scripts" / "serve")], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert f"python manage.py serve --host {bound} --port 8000" in result.stdout


def test_the_freshness_probe_passes_on_a_recent_file_only(tmp_path: Path) -> None:
    probe = [sys.executable, str(ROOT / "deploy" / "healthcheck.py"), "--fresh"]
    heartbeat = tmp_path / "heartbeat"
    assert subprocess.run([*probe, str(heartbeat)], timeout=30).returncode == 1  # none yet
    heartbeat.touch()
    assert subprocess.run([*probe, str(heartbeat), "60"], timeout=30).returncode == 0
    old = heartbeat.stat().st_mtime - 120
    os.utime(heartbeat, (old, old))
    assert subprocess.run([*probe, str(heartbeat), "60"], timeout=30).returncode == 1


@pytest.mark.parametrize("unusable", ["missing", "a-file"])
def test_an_unusable_metrics_dir_is_a_warning_not_a_dead_server(
    tmp_path: Path, unusable: str
) -> None:
    """The compose file's metrics volume once came up owned by root: prometheus_client raised at
    the first metric and every Django process died at import (``manage.py check`` exited 1)."""
    folder = tmp_path / unusable
    if unusable == "a-file":
        folder.write_text("")
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    checked = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr
    assert f"PROMETHEUS_MULTIPROC_DIR {folder} is not a directory" in checked.stderr
