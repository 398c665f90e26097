#!/usr/bin/env python
"""Benchmark of a league's season page: its reads in process and, with ``--browser``, the time
until Chromium shows it.

A measurement harness, not a test. On a database of its own (``scripts/bench_writes.py``) it
records ``--tournaments`` finished bot tournaments of ``--seats`` seats in one season, then:

- in process, through the full Django stack: the page's HTML (drawn by the server, or the
  bare shell of a checkout before that), each read the page's script makes (the season's lines,
  the standings, the league) and what the page sends while a game is live, per poll (the lines
  asked with the version held, answered ``304``; a server without versions: all three again),
  each the median of ``--rounds`` rounds of ``--requests`` requests (wall time, and this
  process's CPU, which a loaded machine's waits do not inflate), with its SQL statements,
  beside the anchor of ``bench_anchors`` (a fixed pure-Python workload's CPU, before and after);
- with ``--browser N``: Daphne serving this checkout (and ``--before`` another one, e.g. the
  code before a change, on the same database) and N loads of the season page in headless
  Chromium, each in a fresh browser context, the servers taking turns: the time from the
  navigation until every tournament and the standings are drawn (checked at each frame, from
  the first byte on: a page the server drew is shown before its scripts load), the first
  contentful paint, and the time until the page's load event (every script run). The first
  load of each server meets a fresh process; the medians are over the loads after it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_season_page.py --tournaments 14 --seats 7 --browser 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import django_test_database

SLUG = "club"
# The page is shown: every tournament and the standings drawn.
SHOWN = """(tournaments) => document.querySelectorAll('.season-tournament').length >= tournaments
  && document.querySelector('table.standings') !== null"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A league's season page, in process and drawn.")
    parser.add_argument("--tournaments", type=int, default=14)
    parser.add_argument("--seats", type=int, default=7)
    parser.add_argument("--requests", type=int, default=20, help="per figure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--browser", type=int, default=0, help="page loads per server")
    parser.add_argument("--before", type=Path, help="another checkout to serve beside this one")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def season(args: argparse.Namespace) -> int:
    """A league with one season of recorded bot tournaments; the season's id."""
    from rest_framework.test import APIClient

    from cards.catalogue import catalogue_load
    from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season

    catalogue_load()
    client = APIClient()
    token = create_organizer("bench")
    slug, made = league_with_season(client, token, SLUG)
    for _ in range(args.tournaments):
        bot_tournament(client, token, slug, made, args.seats)
    return made


def timed(send: Callable[[], list[Any]], count: int) -> Callable[[], tuple[float, float, int]]:
    """A round of ``count`` sends: wall and CPU µs per send (the CPU of this process alone, so
    a loaded machine's waits are out of it) and the statements of the last."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def run() -> tuple[float, float, int]:
        began, cpu = time.perf_counter(), time.process_time()
        for _ in range(count - 1):
            send()
        with CaptureQueriesContext(connection) as queries:
            answers = send()
        spent = (time.perf_counter() - began) / count * 1e6
        used = (time.process_time() - cpu) / count * 1e6
        assert all(a.status_code in (200, 304) for a in answers), answers[0].content[:300]
        return spent, used, len(queries.captured_queries)

    return run


def gets(client: Any, urls: list[str]) -> list[Any]:
    return [client.get(url) for url in urls]


def in_process(args: argparse.Namespace, season_id: int) -> dict[str, dict[str, Any]]:
    from bench_anchors import python_cpu_ms
    from rest_framework.test import APIClient

    client = APIClient()
    base = f"/api/v1/leagues/{SLUG}/"
    lines = f"{base}seasons/{season_id}/lines/"
    reads = {
        "page": f"/leagues/{SLUG}/seasons/{season_id}/",  # the HTML: drawn, or the shell before
        "lines": lines,
        "standings": f"{base}standings/?season={season_id}&kind=all",
        "league": base,
    }
    tag = client.get(lines).get("ETag")  # a server without versions has none
    since = f"{lines}?since={tag.removeprefix('W/').strip(chr(34))}" if tag else None
    polled = [since] if since else list(reads.values())  # the page's poll, by its server
    sends: dict[str, Callable[[], list[Any]]] = {
        name: partial(gets, client, [url]) for name, url in reads.items()
    }
    sends["poll, unchanged"] = partial(gets, client, polled)
    runs = {name: timed(send, args.requests) for name, send in sends.items()}
    anchor = python_cpu_ms()
    for run in runs.values():
        run()  # warm up (the caches too)
    found: dict[str, list[tuple[float, float, int]]] = {}
    for _ in range(args.rounds):
        for name, run in runs.items():
            found.setdefault(name, []).append(run())
    figures: dict[str, dict[str, Any]] = {
        name: {
            "us": round(statistics.median(us for us, _, _ in rounds)),
            "cpu_us": round(statistics.median(cpu for _, cpu, _ in rounds)),
            "statements": rounds[-1][2],
        }
        for name, rounds in found.items()
    }
    figures["bytes"] = {
        "lines": len(client.get(lines).content),
        "lines, gzip": len(client.get(lines, headers={"Accept-Encoding": "gzip"}).content),
        "poll, unchanged": sum(len(a.content) for a in sends["poll, unchanged"]()),
    }
    figures["anchor"] = {"python_cpu_ms": round(python_cpu_ms(), 1), "before": anchor}
    return figures


@contextmanager
def served(root: Path, folder: Path) -> Iterator[str]:
    """Daphne serving the checkout at ``root`` on the benchmark's database."""
    from bench_docs_page import wait_until_healthy
    from django.db import connection

    from tests.live_server import DAPHNE, free_port, server_environment

    settings = connection.settings_dict
    env = server_environment(Path(settings["NAME"]))
    if connection.vendor == "postgresql":
        env["DATABASE_URL"] = (
            f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/"
            f"{settings['NAME']}"
        )
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = folder / f"daphne-{port}.log"
    command = [*DAPHNE, "-b", "127.0.0.1", "-p", str(port), "server.serve:application"]
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(url, server, log)
        yield url
    finally:
        server.kill()
        server.wait()


def one_load(browser: Any, url: str, season_id: int, tournaments: int) -> dict[str, float]:
    context = browser.new_context()
    page = context.new_page()
    began = time.perf_counter()
    # From the first byte on: the page may be drawn (by the server) before its scripts load.
    page.goto(f"{url}/leagues/{SLUG}/seasons/{season_id}/", wait_until="commit")
    page.wait_for_function(SHOWN, arg=tournaments, timeout=120_000, polling="raf")
    shown = time.perf_counter() - began
    page.wait_for_load_state("load")  # every script run: the page keeps itself current
    loaded = time.perf_counter() - began
    fcp = page.evaluate(
        "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0"
    )
    context.close()
    return {
        "shown_ms": round(shown * 1000),
        "fcp_ms": round(fcp),
        "loaded_ms": round(loaded * 1000),
    }


def in_browser(args: argparse.Namespace, season_id: int) -> dict[str, dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    from tests.live_server import ROOT

    roots = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    loads: dict[str, list[dict[str, float]]] = {name: [] for name in roots}
    with (
        tempfile.TemporaryDirectory() as folder,
        sync_playwright() as playwright,
        served(roots["now"], Path(folder)) as now,
        _maybe(roots, Path(folder)) as before,
    ):
        urls = {"now": now, **({"before": before} if before else {})}
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for _ in range(args.browser + 1):
            for name, url in urls.items():
                loads[name].append(one_load(browser, url, season_id, args.tournaments))
        browser.close()
    return {name: _summary(found) for name, found in loads.items()}


@contextmanager
def _maybe(roots: dict[str, Path], folder: Path) -> Iterator[str | None]:
    if "before" not in roots:
        yield None
        return
    with served(roots["before"], folder) as url:
        yield url


def _summary(loads: list[dict[str, float]]) -> dict[str, Any]:
    rest = loads[1:]
    return {
        "first_load_of_a_fresh_server": loads[0],
        "median_shown_ms": statistics.median(load["shown_ms"] for load in rest),
        "median_fcp_ms": statistics.median(load["fcp_ms"] for load in rest),
        "median_loaded_ms": statistics.median(load["loaded_ms"] for load in rest),
        "shown_ms": [load["shown_ms"] for load in rest],
    }


def main() -> None:
    args = parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # A harness filling a season from one client: the throttles' counts, kept in Redis, would
    # refuse the next run's writes (throttled) if it started within their window.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from config.env import DEFAULT_THROTTLE_RATES

    for scope in DEFAULT_THROTTLE_RATES:
        os.environ.setdefault(f"THROTTLE_{scope.upper()}", "off")
    with django_test_database():
        season_id = season(args)
        figures: dict[str, Any] = {"in_process": in_process(args, season_id)}
        if args.browser:
            figures["browser"] = in_browser(args, season_id)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{args.tournaments} tournaments of {args.seats} seats; median of {args.rounds} rounds")
    for name, row in figures["in_process"].items():
        print(f"{name:18} {row}")
    for name, row in figures.get("browser", {}).items():
        shown, paint, loaded = row["median_shown_ms"], row["median_fcp_ms"], row["median_loaded_ms"]
        print(f"page shown ({name}): {shown} ms, first paint {paint} ms, loaded {loaded} ms")


if __name__ == "__main__":
    main()
