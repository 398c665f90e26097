"""One cause pages once: deploy/prometheus/alertmanager.yml, run in a real Alertmanager (Debian's,
installed into .venv/bin by scripts/lib.sh), inhibits the alerts that follow from a lost
dependency or a failed scrape, and leaves an unrelated alert alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "prometheus" / "alertmanager.yml"
RULES = ROOT / "deploy" / "prometheus" / "alerts.yml"
# Only a dead process or this long without an answer gives up (a loaded machine is slow to start
# a Go binary; the test waits for its readiness, not for a time).
GIVE_UP_SECONDS = 600


def tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (scripts/lib.sh ensure_promtool)")
    return found


def test_amtool_accepts_the_configuration() -> None:
    checked = subprocess.run(
        [tool("amtool"), "check-config", str(CONFIG)], capture_output=True, text=True, timeout=120
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_inhibited_alert_is_one_of_ours() -> None:
    ours = {
        rule["alert"]
        for group in yaml.safe_load(RULES.read_text())["groups"]
        for rule in group["rules"]
    }
    named = set()
    for rule in yaml.safe_load(CONFIG.read_text())["inhibit_rules"]:
        for matcher in rule["source_matchers"] + rule["target_matchers"]:
            names = matcher.split("=", 1)[1].strip().strip('"').lstrip("~").strip().strip('"')
            named |= set(names.split("|"))
    assert named <= ours, sorted(named - ours)


@pytest.fixture(scope="module")
def alertmanager(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("alertmanager")
    port = free_port()
    log = (folder / "log").open("wb")
    server = subprocess.Popen(
        [
            tool("prometheus-alertmanager"),
            f"--config.file={CONFIG}",
            f"--storage.path={folder}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--cluster.listen-address=",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(url, server, folder / "log")
        yield url
    finally:
        server.terminate()
        server.wait()
        log.close()


def _wait_until_ready(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    started = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(f"{url}/-/ready", timeout=5):
                return
        except OSError:
            if server.poll() is not None or time.monotonic() - started > GIVE_UP_SECONDS:
                raise AssertionError(log.read_text()) from None
            time.sleep(0.1)


def _post(url: str, alerts: list[dict[str, Any]]) -> None:
    request = urllib.request.Request(
        f"{url}/api/v2/alerts",
        data=json.dumps(alerts).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def _states(url: str, names: set[str]) -> dict[str, str]:
    """Each alert's state once Alertmanager has taken every one of ``names`` and decided on the
    inhibitions (an alert first shows as ``unprocessed``)."""
    started = time.monotonic()
    while True:
        with urllib.request.urlopen(f"{url}/api/v2/alerts", timeout=30) as answer:
            alerts = json.loads(answer.read())
        states = {alert["labels"]["alertname"]: alert["status"]["state"] for alert in alerts}
        if set(states) >= names and "unprocessed" not in states.values():
            return states
        assert time.monotonic() - started < GIVE_UP_SECONDS, states
        time.sleep(0.1)


def _alert(name: str, **labels: str) -> dict[str, Any]:
    return {"labels": {"alertname": name, "severity": "page", **labels}}


def _wait_for_state(url: str, name: str, state: str) -> None:
    started = time.monotonic()
    while (found := _states(url, {name})[name]) != state:
        assert time.monotonic() - started < GIVE_UP_SECONDS, f"{name} stayed {found}"
        time.sleep(0.1)


def test_a_lost_database_pages_once(alertmanager: str) -> None:
    """A PostgreSQL outage: the dependency alert pages; the 5xx, the retries, the missing
    heartbeats and the stuck tournaments it causes are inhibited; a webhook receiver's own
    trouble would not be, had it not been named — so a different cause still pages."""
    consequences = {
        "ChallengersServerErrors",
        "ChallengersTasksRetrying",
        "ChallengersWorkerMissing",
        "ChallengersBeatMissing",
        "ChallengersTournamentsStuck",
    }
    # Alertmanager's inhibitor learns of a firing alert a moment after the API took it: one
    # consequence is read until it shows suppressed, then the inhibitor holds the cause.
    first, *others = sorted(consequences)
    _post(alertmanager, [_alert("ChallengersDependencyLost", dependency="database")])
    _post(alertmanager, [_alert(first)])
    _wait_for_state(alertmanager, first, "suppressed")
    _post(alertmanager, [_alert(name) for name in others])
    states = _states(alertmanager, {"ChallengersDependencyLost", *consequences})
    assert states.pop("ChallengersDependencyLost") == "active"
    assert {name: states[name] for name in consequences} == dict.fromkeys(
        consequences, "suppressed"
    )
