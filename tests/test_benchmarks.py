"""The benchmarks in ``scripts/`` still run (a short mode: that they work, not how fast)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def run(script: str, *args: str) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    figures: dict[str, dict[str, float]] = json.loads(result.stdout[result.stdout.index("{") :])
    return figures


@pytest.mark.long
@pytest.mark.timeout(600)
def test_the_write_benchmark_times_deck_phases_matches_and_round_closes() -> None:
    figures = run("bench_writes.py", "--tournaments", "1", "--seats", "2")
    whole = figures.pop("all, per match")
    assert set(figures) == {"bot_deck_phase", "bot_task", "match_play", "round_close"}
    assert all(row["calls"] >= 1 and row["cpu_ms_p50"] > 0 for row in figures.values())
    assert whole["calls"] == figures["match_play"]["calls"]
    assert whole["cpu_ms_mean"] > figures["match_play"]["cpu_ms_mean"] and whole["sql_mean"] > 0


@pytest.mark.timeout(600)
def test_the_card_stats_benchmark_times_recording_and_the_reads_of_seeded_rows() -> None:
    figures: dict[str, Any] = run(
        "bench_card_stats.py",
        "--tournaments",
        "1",
        "--seats",
        "2",
        "--matches",
        "5000",
        "--combos",
        "20",
        "--reads",
        "5",
    )
    assert set(figures["recording"]) == {"record_match", "record_deck_phase"}
    recorded = figures["recording"]["record_match"]
    drafted = figures["recording"]["record_deck_phase"]
    assert recorded["calls"] >= 1 and recorded["sql_mean"] == 1.0  # the match's one insert
    assert drafted["calls"] >= 1 and drafted["sql_mean"] == 0.0  # rows computed, written later
    assert figures["seeded"]["matches"] == 5000 and figures["seeded"]["rows"] > 0
    assert all(row["ms_p50"] > 0 for row in figures["reads"].values())


@pytest.mark.timeout(600)
def test_the_question_benchmark_times_the_champions_simulated_answers() -> None:
    figures: dict[str, Any] = run("bench_questions.py", "--matches", "10")
    assert figures["matches"] == 20
    assert figures["simulated"] >= 1
    assert figures["question_ms"]["p50"] > 0 and figures["rollouts"]["max"] <= 192


@pytest.mark.long
@pytest.mark.timeout(600)
def test_the_season_page_benchmark_times_its_reads_its_poll_and_its_page_in_chromium() -> None:
    short = ("--tournaments", "1", "--seats", "2", "--requests", "2", "--rounds", "1")
    figures: dict[str, Any] = run("bench_season_page.py", *short, "--browser", "1")
    reads = figures["in_process"]
    assert reads.pop("anchor")["python_cpu_ms"] > 0  # the same-run anchor, before and after
    assert reads.pop("bytes")["poll, unchanged"] == 0  # answered 304
    assert set(reads) == {"page", "lines", "standings", "league", "poll, unchanged"}
    # season, tournaments, results and the corrections of its tournaments and of the season
    assert reads["lines"]["statements"] == reads["poll, unchanged"]["statements"] == 5
    assert reads["page"]["statements"] == 14  # drawn: tests/leagues/test_season_page.py
    shown = figures["browser"]["now"]
    assert 0 < shown["median_shown_ms"] <= shown["median_loaded_ms"]


@pytest.mark.long
@pytest.mark.timeout(600)
def test_the_docs_page_benchmark_times_the_api_docs_in_chromium() -> None:
    figures: dict[str, Any] = run("bench_docs_page.py", "--runs", "1")
    assert figures["after"]["median_operations_s"] > 0
    assert figures["after"]["median_schema_fetch_s"] > 0


@pytest.mark.timeout(600)
def test_the_read_benchmark_compares_every_read_with_the_bare_list() -> None:
    figures = run("bench_reads.py", "--seats", "2", "--requests", "2", "--rounds", "1")
    assert figures["bare 20-card list"]["ratio"] == 1.0
    assert {"tournament (seat)", "match list", "match events"} <= set(figures)


@pytest.mark.timeout(600)
@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="serves gunicorn on a PostgreSQL database of its own (the CI run sets DATABASE_URL)",
)
def test_the_http_benchmark_loads_every_read_through_gunicorn() -> None:
    figures = run("bench_http.py", "--seats", "2", "--seconds", "0.3", "--connections", "2")
    assert figures["bare 20-card list"]["ratio"] == 1.0
    assert all(row["rps"] > 0 for row in figures.values())


@pytest.mark.long
@pytest.mark.timeout(600)
def test_the_graphql_benchmark_compares_each_query_with_its_rest_twin() -> None:
    short = ("--seats", "2", "--requests", "2", "--rounds", "1", "--spells", "1")
    figures = run("bench_graphql.py", *short)
    assert figures.pop("anchor")["python_cpu_ms"] > 0  # the same-run anchor, before and after
    assert {"tournament (spectator)", "tournament (seat)", "match events"} <= set(figures)
    assert {"match list", "match list (seat)", "card sets"} <= set(figures)
    assert all(row["rest_us"] > 0 and row["graphql_us"] > 0 for row in figures.values())
    replays = {name.rsplit("(", 1)[1] for name in figures if name.startswith("replay of")}
    assert replays == {"seat)", "spectator)"}
    assert all(row["ratio"] > 0 for row in figures.values())


@pytest.mark.long
@pytest.mark.timeout(600)
@pytest.mark.skipif(
    not (ON_POSTGRES and os.environ.get("REDIS_URL")),
    reason="runs Celery workers and Daphnes on PostgreSQL and Redis (the CI run sets both)",
)
def test_the_stack_benchmark_plays_bot_tournaments_on_workers_and_two_daphnes() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Its Redis database is REDIS_URL's, which is this xdist worker's own (tests/conftest.py).
    short = ["--tournaments", "2", "--seats", "2", "--daphnes", "2"]
    # One short spell: the first tournaments only, a lone 2-seat one, the anchors.
    short += ["--repeat", "1", "--spell-seconds", "0", "--spell-matches", "0", "--solo-seats", "2"]
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_stack.py"), *short, "--timeout", "300"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "finished with a champion:   2/2" in result.stdout, result.stdout
    assert "no gap, on every socket: yes" in result.stdout, result.stdout
    anchors = ("anchor: bare echo p99", "anchor: Celery round trip", "anchor: Python workload")
    for figure in (*anchors, "p99 / echo p99", "CPU per match / Python workload"):
        assert figure in result.stdout, result.stdout


@pytest.mark.timeout(600)
def test_the_simulate_benchmark_times_both_ways_of_queueing_through_the_admin() -> None:
    figures = run("bench_simulate.py", "--cards", "2", "--matches", "2", "--spells", "1")
    assert set(figures) == {"one_by_one", "at_once"}
    assert all(row["ms_median"] > 0 for row in figures.values())


@pytest.mark.timeout(600)
@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="row locks need PostgreSQL (set DATABASE_URL)",
)
def test_the_contention_benchmark_replays_recordings_in_every_mode() -> None:
    figures: dict[str, Any] = run(
        "bench_stats_contention.py",
        *("--tournaments", "1", "--seats", "2", "--recorders", "1", "2"),
        *("--matches", "5", "--spells", "1"),
    )
    assert set(figures["runs"]) == {
        f"{mode}/{n}" for mode in ("baseline", "unlocked", "locked", "deltas") for n in (1, 2)
    }
    assert all(row["deadlocks"] == 0 for row in figures["runs"].values())
    assert figures["runs"]["deltas/2"]["fold_ms_per_match"] > 0


@pytest.mark.timeout(600)
@pytest.mark.skipif(
    not ON_POSTGRES,
    reason="reads a PostgreSQL backend's CPU (set DATABASE_URL)",
)
def test_the_event_copy_benchmark_writes_logs_into_each_shape_of_table() -> None:
    figures = run("bench_event_copy.py", "--matches", "20", "--events", "10", "--spells", "1")
    assert set(figures) == {"index_and_fk", "fk_only", "unique_only"}
    assert all(row["median_ms"] >= 0 for row in figures.values())


def test_the_start_benchmark_times_a_django_start_of_each_checkout() -> None:
    figures = run("bench_start.py", "--spells", "1", "--baseline", str(ROOT))
    assert set(figures) == {"this checkout", "baseline"}
    assert all(row["cpu_s_p50"] > 0 and row["spells"] == 1 for row in figures.values())
