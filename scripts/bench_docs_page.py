"""How fast the API docs page (``/api/v1/docs/``, Swagger UI) paints its operations.

``python scripts/bench_docs_page.py [--runs 5] [--before CHECKOUT]`` serves the embedded server
(Daphne, SQLite) of this checkout, and with ``--before`` of another one too (e.g. a worktree of
``main``), and opens the page in Debian's headless Chromium, each load in a fresh browser
context (nothing cached), the two servers in turn so that the machine's load falls on both
alike: the time to the first contentful paint (the browser's own figure) and to the API's
operations painted (their first tag; Swagger UI's spinner gone). The first load of each
server meets a fresh process; the medians are over the loads after it. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, sync_playwright

from tests.live_server import (
    DAPHNE,
    ROOT,
    _migrate_and_load,
    free_port,
    server_environment,
)

CHROMIUM = "/usr/bin/chromium"
FCP = "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
SCHEMA = """() => {
  const found = performance.getEntriesByType('resource').find((e) => e.name.includes('/schema/'));
  return [found.responseEnd - found.startTime, found.responseEnd];
}"""


def one_load(browser: Browser, url: str) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"{url}/api/v1/docs/")
    page.wait_for_selector(".opblock-tag", state="visible", timeout=120_000)
    operations = time.perf_counter() - started
    fcp = page.evaluate(FCP)
    fetched = page.evaluate(SCHEMA)
    context.close()
    return {
        "operations_s": round(operations, 3),
        "fcp_s": round(fcp / 1000, 3) if fcp else None,
        "schema_fetch_s": round(fetched[0] / 1000, 3),  # the request of /api/v1/schema/
        "schema_received_at_s": round(fetched[1] / 1000, 3),  # then Swagger UI parses, paints
    }


def wait_until_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """As the tests' live server waits, with more patience (a loaded machine starts slowly)."""
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/v1/health/", timeout=5):
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise AssertionError(log.read_text()) from None
            time.sleep(0.5)


def serve(root: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """The embedded server of the checkout at ``root`` on a copy of a migrated database."""
    env = server_environment(folder / "live.sqlite3")
    _migrate_and_load(folder / "live.sqlite3", env)
    port = free_port()
    daphne = [*DAPHNE, "-b", "127.0.0.1", "-p", str(port), "server.serve:application"]
    log = (folder / "daphne.log").open("wb")
    server = subprocess.Popen(daphne, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_until_healthy(url, server, folder / "daphne.log")
    return server, url


def summary(loads: list[dict[str, Any]]) -> dict[str, Any]:
    rest = loads[1:]
    return {
        "first_load_of_a_fresh_server": loads[0],
        "runs": rest,
        "median_operations_s": statistics.median(r["operations_s"] for r in rest),
        "median_fcp_s": statistics.median(r["fcp_s"] or 0 for r in rest),
        "median_schema_fetch_s": statistics.median(r["schema_fetch_s"] for r in rest),
        "median_after_schema_s": statistics.median(
            r["operations_s"] - r["schema_received_at_s"] for r in rest
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="Another checkout to compare with.")
    parser.add_argument("--json", action="store_true", help="JSON (the only form it prints).")
    args = parser.parse_args()
    roots = {"after": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    servers: list[subprocess.Popen[bytes]] = []
    loads: dict[str, list[dict[str, Any]]] = {name: [] for name in roots}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        urls = {}
        for name, root in roots.items():
            (Path(folder) / name).mkdir()
            server, urls[name] = serve(root, Path(folder) / name)
            servers.append(server)
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for _ in range(args.runs + 1):
                for name, url in urls.items():
                    loads[name].append(one_load(browser, url))
            browser.close()
        finally:
            for server in servers:
                server.kill()
                server.wait()
    print(json.dumps({name: summary(found) for name, found in loads.items()}, indent=2))


if __name__ == "__main__":
    main()
