"""How long a start takes to a ready server: ``manage.py serve`` (one Django start for every
step, then Daphne in the same process) against the same steps as separate commands (the way
``./scripts/serve`` ran them before), alternated spell by spell on one prepared SQLite database.

    .venv/bin/python scripts/bench_serve.py --spells 5

Prints each spell and the medians. A "second start" is measured: the database is migrated and
loaded by a first, unmeasured start, so every step has nothing to do.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.live_server import free_port  # noqa: E402

PYTHON = sys.executable
MANAGE = [PYTHON, str(ROOT / "manage.py")]
STEPS = (["compile_catalogues"], ["migrate", "--noinput"], ["load_catalogue"], ["ensure_admin"])


def environment(database: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(SQLITE_PATH=str(database), PYTHONPYCACHEPREFIX=str(ROOT / "build" / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def one_process(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [*MANAGE, "serve", "--port", str(port)]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)


def separate(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    for step in STEPS:
        subprocess.run([*MANAGE, *step], cwd=ROOT, env=env, check=True, capture_output=True)
    daphne = [str(Path(PYTHON).parent / "daphne"), "-p", str(port), "server.serve:application"]
    return subprocess.Popen(daphne, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)


def spell(start: object, env: dict[str, str]) -> float:
    """Seconds from the start to the first 200 of the readiness probe."""
    port = free_port()
    began = time.perf_counter()
    server = start(port, env)  # type: ignore[operator]
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/ready/", timeout=5):
                    return time.perf_counter() - began
            except OSError:
                if server.poll() is not None:
                    raise SystemExit(f"the server exited ({server.returncode})") from None
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spells", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = environment(Path(folder) / "bench.sqlite3")
        subprocess.run([*MANAGE, "serve", "--setup-only"], cwd=ROOT, env=env, check=True)
        times: dict[str, list[float]] = {"one process": [], "separate commands": []}
        for number in range(args.spells):
            for name, start in (("one process", one_process), ("separate commands", separate)):
                times[name].append(spell(start, env))
                print(f"spell {number + 1}: {name}: {times[name][-1]:.1f} s", flush=True)
    for name, values in times.items():
        print(f"median {name}: {statistics.median(values):.1f} s over {len(values)} spells")


if __name__ == "__main__":
    main()
