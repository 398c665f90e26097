"""The alert rules and the dashboard under ``deploy/`` name only metrics the server exports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "prometheus" / "alerts.yml"
RULE_TESTS = ROOT / "deploy" / "prometheus" / "alerts_test.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "challengers.json"
OURS = re.compile(r"\bchallengers_[a-z_]+\b")
# Series Prometheus makes itself (not the server's): the scrape's own health.
PROMETHEUS_OWN = {"up"}
SUFFIXES = ("", "_total", "_created", "_bucket", "_count", "_sum")
REQUIRED_ALERTS = {
    "ChallengersTournamentsStuck",
    "ChallengersStreamLagHigh",
    "ChallengersTaskFailures",
    "ChallengersWorkerMissing",
    "ChallengersBeatMissing",
    "ChallengersWebhookFailureRate",
    "ChallengersDependencyLost",
}


def exported() -> set[str]:
    """Every series name a scrape can hold, whether or not a series has a value yet."""
    text = Client().get("/metrics").content.decode()
    return {
        family.name + suffix
        for family in text_string_to_metric_families(text)
        for suffix in SUFFIXES
    }


def rule_expressions() -> dict[str, str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


def dashboard_expressions() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


@pytest.mark.django_db
def test_every_metric_the_rules_and_the_dashboard_name_exists() -> None:
    names = exported()
    expressions = [*rule_expressions().values(), *dashboard_expressions()]
    used = {name for expr in expressions for name in OURS.findall(expr)}
    assert used and used <= names, sorted(used - names)


@pytest.mark.django_db
def test_the_dashboard_shows_every_family_the_server_exports() -> None:
    ours = {name for name in exported() if name.startswith("challengers_")}
    shown = {name for expr in dashboard_expressions() for name in OURS.findall(expr)}
    families = {name.removesuffix("_total").removesuffix("_bucket") for name in shown}
    declared = {name for name in ours if not name.endswith(SUFFIXES[1:])}
    assert declared <= families, sorted(declared - families)


def test_the_rules_cover_what_an_operator_must_hear_about() -> None:
    rules = rule_expressions()
    assert set(rules) >= REQUIRED_ALERTS
    other = {m for expr in rules.values() for m in re.findall(r"\b([a-z_]+)\{job=", expr)}
    assert other <= PROMETHEUS_OWN


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    """Prometheus's own checker (scripts/test installs it into .venv/bin from Debian)."""
    found = shutil.which("promtool") or shutil.which(
        "promtool", path=str(Path(sys.executable).parent)
    )
    if found is None:
        pytest.skip("promtool is not installed (scripts/lib.sh ensure_promtool)")
    return subprocess.run([found, *args], capture_output=True, text=True, timeout=120)


def test_prometheus_accepts_the_rules() -> None:
    checked = promtool("check", "rules", str(RULES))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_main_alerts_fire_on_their_unit_test_series() -> None:
    tested = promtool("test", "rules", str(RULE_TESTS))
    assert tested.returncode == 0, tested.stdout + tested.stderr
    named = {
        r["alertname"]
        for t in yaml.safe_load(RULE_TESTS.read_text())["tests"]
        for r in t["alert_rule_test"]
    }
    assert named >= REQUIRED_ALERTS
