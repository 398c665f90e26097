#!/usr/bin/env python
"""Benchmark of the read endpoints, in process: each one against a bare DRF list, in one run.

A measurement harness, not a test. On a database of its own (as ``scripts/bench_writes.py``) it
plays one finished bot-only tournament of ``--seats`` seats, then times each read endpoint through
the full Django stack (middleware, URL routing, DRF, JSON rendering; no network) and, in the same
run, a bare ``ListAPIView`` of 20 ``Card`` rows with a 6-field ``ModelSerializer`` — the
yardstick (``scripts/bench_urls.py``). Rounds take turns so that a slow spell of a shared machine
falls on every figure; each figure is the best of ``--rounds``. It prints microseconds per
request and the ratio to the bare list.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_reads.py --seats 8
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import Meter, django_test_database, play


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Read endpoints against a bare DRF list.")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--requests", type=int, default=100, help="per figure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def timer(client: Any, url: str, headers: dict[str, str], count: int) -> Callable[[], float]:
    def run() -> float:
        began = time.perf_counter()
        for _ in range(count):
            response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.status_code)
        return (time.perf_counter() - began) / count * 1e6

    return run


def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    from django.test import override_settings
    from rest_framework.test import APIClient

    from matches.models import Match
    from tournaments.models import Seat, Tournament

    tournament = Tournament.objects.get()
    match = Match.objects.filter(tournament=tournament).order_by("pk").last()
    assert match is not None
    seat = Seat.objects.filter(tournament=tournament, number=0).get()
    seat.token_hash = __import__("hashlib").sha256(b"bench").hexdigest()
    seat.save(update_fields=["token_hash"])
    as_seat = {"Authorization": "Bearer bench"}
    reads = {
        "bare 20-card list": ("/bench/bare/", {}),
        "cards (all)": ("/api/v1/cards/", {}),
        "cards ?set=Castle": ("/api/v1/cards/?set=Castle", {}),
        "tournament (spectator)": (f"/api/v1/tournaments/{tournament.pk}/", {}),
        "tournament (seat)": (f"/api/v1/tournaments/{tournament.pk}/", as_seat),
        "match list": (f"/api/v1/tournaments/{tournament.pk}/matches/", {}),
        "match events": (f"/api/v1/matches/{match.pk}/events/", {}),
    }
    import bench_urls  # noqa: F401  (the product's URLs and the yardstick)

    best: dict[str, float] = {}
    with override_settings(ROOT_URLCONF="bench_urls", DEBUG=False):
        client = APIClient()
        runs = {name: timer(client, url, h, args.requests) for name, (url, h) in reads.items()}
        for run in runs.values():
            run()  # warm up
        for _ in range(args.rounds):
            for name, run in runs.items():
                best[name] = min(best.get(name, float("inf")), run())
    bare = best["bare 20-card list"]
    return {name: {"us": round(us), "ratio": round(us / bare, 2)} for name, us in best.items()}


def main() -> None:
    args = parse_args()
    sys.argv = [sys.argv[0], "--tournaments", "0", "--seats", str(args.seats)]
    with django_test_database():
        from bench_writes import parse_args as writes_args

        play(writes_args(), Meter())
        figures = measure(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"in process, best of {args.rounds} x {args.requests} requests; finished {args.seats}-seat"
    )
    for name, row in figures.items():
        print(f"{name:24} {row['us']:8.0f} us/request   {row['ratio']:5.2f} x the bare list")


if __name__ == "__main__":
    main()
