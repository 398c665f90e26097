"""CPU of one Django start (``django.setup()`` in a fresh process), alternated between checkouts.

    .venv/bin/python scripts/bench_start.py --spells 7 --baseline /path/to/another/checkout

Every process this project runs pays it first: a command, a worker, beat, gunicorn, Daphne.
Each spell starts this checkout, then the baseline if one is given. Both use this venv and the
embedded defaults (SQLite, no Redis). Prints each spell's user + system CPU and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = "import django; django.setup()"


def cpu_of_start(root: Path) -> float:
    """User + system CPU seconds of one Django start of the checkout at ``root``."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(root),
        PYTHONPYCACHEPREFIX=str(root / "build" / "pycache"),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", PROBE], cwd=root, env=env, check=True, capture_output=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spells", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="another checkout, started alternately")
    parser.add_argument("--json", action="store_true", help="print the medians as JSON")
    args = parser.parse_args()
    roots = {"this checkout": ROOT} | ({"baseline": args.baseline} if args.baseline else {})
    for root in roots.values():
        cpu_of_start(root)  # compiles the bytecode once, outside the spells
    times: dict[str, list[float]] = {name: [] for name in roots}
    for number in range(args.spells):
        for name, root in roots.items():
            times[name].append(cpu_of_start(root))
            if not args.json:
                print(f"spell {number + 1}: {name}: {times[name][-1]:.2f} s", flush=True)
    medians = {
        name: {"cpu_s_p50": statistics.median(t), "spells": len(t)} for name, t in times.items()
    }
    if args.json:
        print(json.dumps(medians))
        return
    for name, figures in medians.items():
        print(f"median {name}: {figures['cpu_s_p50']:.2f} s of CPU over {len(times[name])} spells")


if __name__ == "__main__":
    main()
