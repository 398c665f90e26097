"""How fast the API docs page (``/api/v1/docs/``, Swagger UI) paints its operations.

``python scripts/bench_docs_page.py [--runs 5]`` serves the embedded server (``tests.live_server``)
and opens the page in Debian's headless Chromium, each run in a fresh browser context (nothing
cached): the time to the first contentful paint (the browser's own figure) and to the first
operation painted (Swagger UI's spinner gone). The first run meets a fresh server process; the
median is over the runs after it. Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Browser, sync_playwright

from tests.live_server import live_server

CHROMIUM = "/usr/bin/chromium"
FCP = "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"


def one_load(browser: Browser, url: str) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(f"{url}/api/v1/docs/")
    page.wait_for_selector(".opblock", state="visible", timeout=120_000)
    operations = time.perf_counter() - started
    fcp = page.evaluate(FCP)
    context.close()
    return {"operations_s": round(operations, 3), "fcp_s": round(fcp / 1000, 3) if fcp else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        live_server(Path(folder)) as url,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        first = one_load(browser, url)
        runs = [one_load(browser, url) for _ in range(args.runs)]
        browser.close()
    result = {
        "first_load_of_a_fresh_server": first,
        "runs": runs,
        "median_operations_s": statistics.median(r["operations_s"] for r in runs),
        "median_fcp_s": statistics.median(r["fcp_s"] or 0 for r in runs),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
