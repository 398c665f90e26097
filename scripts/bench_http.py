#!/usr/bin/env python
"""Benchmark of the REST reads over HTTP, as compose serves them: gunicorn against PostgreSQL.

A measurement harness, not a test. It prepares a database of its own (``bench_http_<name>`` of
``DATABASE_URL``: migrated, the catalogue loaded, one finished bot-only tournament of
``--seats`` seats played in this process), starts gunicorn (``--workers`` sync workers, DEBUG
off) on a free loopback port with a URL configuration that adds the yardstick — a bare DRF
``ListAPIView`` of 20 cards with a 6-field ``ModelSerializer`` (``scripts/bench_urls.py``),
never in the product — and loads each endpoint in turn from ``--connections`` keep-alive client
threads for ``--seconds``. It prints requests per second, p50 and p99 latency and each figure's
ratio to the bare list (bigger is slower). Loopback only, bounded in time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_http.py --seconds 5
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="REST reads over HTTP against a bare DRF list.")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="per endpoint")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def prepare(args: argparse.Namespace) -> tuple[dict[str, str], dict[str, str]]:
    """A migrated database with one finished tournament; the env for gunicorn and the paths."""
    from urllib.parse import urlsplit, urlunsplit

    url = os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("Set DATABASE_URL to a PostgreSQL server (the benchmark makes its own).")
    parts = urlsplit(url)
    name = f"bench_http_{parts.path.lstrip('/')}"
    env = {
        **os.environ,
        "DATABASE_URL": urlunsplit(parts._replace(path=f"/{name}")),
        "DEBUG": "false",
        "SECRET_KEY": "bench-http-" + "x" * 40,
        "HTTPS": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "MATCH_EVENT_PACE_MS": "0",
        "THROTTLE_CREATE": "off",
        "THROTTLE_JOIN": "off",
        "THROTTLE_ACTION": "off",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "scripts")]),
    }
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "-c", SETUP, str(args.seats)], env=env, check=True, cwd=ROOT)
    paths = json.loads((ROOT / ".bench_http_paths.json").read_text())
    (ROOT / ".bench_http_paths.json").unlink()
    return env, paths


SETUP = """
import json, os, sys
import django
from django.db import connection
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
name = connection.settings_dict if False else None
import psycopg
from urllib.parse import urlsplit, urlunsplit
url = urlsplit(os.environ["DATABASE_URL"])
admin = urlunsplit(url._replace(path="/postgres"))
with psycopg.connect(admin, autocommit=True) as db:
    db.execute(f'DROP DATABASE IF EXISTS "{url.path[1:]}"')
    db.execute(f'CREATE DATABASE "{url.path[1:]}"')
django.setup()
from django.conf import settings
from django.core.management import call_command
call_command("migrate", verbosity=0)
from server.celery import app
app.conf.task_always_eager = True
settings.TASK_RUNNER = "celery"
from cards.catalogue import catalogue_load
catalogue_load()
from hashlib import sha256
from tournaments.models import Seat, SeatKind
from tournaments.services.lobby import seat_add_bots, tournament_create
from tournaments.services.start import tournament_start
from matches.models import Match
seats = int(sys.argv[1])
ticket = tournament_create(host_name="Host", seat_count=seats, seed=7)
seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=seats - 1)
Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
Seat.objects.filter(pk=ticket.seat.pk).update(token_hash=sha256(b"bench").hexdigest())
t = ticket.tournament.pk
m = Match.objects.filter(tournament_id=t).order_by("pk").last().pk
json.dump({
    "bare 20-card list": "/bench/bare/",
    "cards (all)": "/api/v1/cards/",
    "tournament (spectator)": f"/api/v1/tournaments/{t}/",
    "tournament (seat)": f"/api/v1/tournaments/{t}/#seat",
    "match list": f"/api/v1/tournaments/{t}/matches/",
    "match events": f"/api/v1/matches/{m}/events/",
}, open(".bench_http_paths.json", "w"))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def load(port: int, path: str, args: argparse.Namespace) -> dict[str, float]:
    """``--connections`` keep-alive clients asking ``path`` for ``--seconds``."""
    path, _, mark = path.partition("#")
    headers = {"Authorization": "Bearer bench"} if mark == "seat" else {}
    latencies: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = []
        while time.monotonic() < stop:
            began = time.perf_counter()
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            mine.append(time.perf_counter() - began)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(args.connections)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    ordered = sorted(latencies)
    return {
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 1),
    }


def wait_ready(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not start")


def main() -> None:
    args = parse_args()
    env, paths = prepare(args)
    port = free_port()
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bench_urls:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_ready(port)
        for path in paths.values():  # warm every worker's caches
            load(port, path, argparse.Namespace(connections=args.workers * 2, seconds=0.5))
        figures = {name: load(port, path, args) for name, path in paths.items()}
    finally:
        server.terminate()
        server.wait(timeout=30)
    bare = figures["bare 20-card list"]["rps"]
    for row in figures.values():
        row["ratio"] = round(bare / row["rps"], 2) if row["rps"] else float("inf")
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"gunicorn x {args.workers}, {args.connections} keep-alive clients, {args.seconds} s each"
    )
    for name, row in figures.items():
        print(
            f"{name:24} {row['rps']:8.1f} req/s  p50 {row['p50_ms']:6.1f} ms  "
            f"p99 {row['p99_ms']:6.1f} ms  {row['ratio']:5.2f} x the bare list"
        )


if __name__ == "__main__":
    main()
