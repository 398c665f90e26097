#!/usr/bin/env python
"""Micro-benchmark of ``apikit.shapes``: a league standings body of ``--rows`` rows built as shapes
and rendered by ``to_json`` (what the selector and REST view do), against the same body built
as dictionaries (what the selector did before shapes), in one process, rounds taking turns.

A measurement harness, not a test: no database. It prints the median microseconds of each.

    .venv/bin/python scripts/bench_shapes.py --rows 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TIEBREAK = ["points", "wins", "finals", "fans", "played"]


def as_shapes(count: int) -> Any:
    from apikit.shapes import to_json
    from leagues.shapes import Skill, StandingRow, Standings

    rows = [
        StandingRow(
            rank=i,
            member=f"m{i}",
            kind="human",
            points=i,
            wins=1,
            finals=1,
            fans=3,
            played=2,
            vector=[i, 1, 1, 3, 2],
            decided_by="points",
            rating=Skill(mu=25.0, sigma=8.0, ordinal=1.0),
        )
        for i in range(count)
    ]
    standings = Standings(season=1, kind="all", tiebreak=list(TIEBREAK), rows=rows, corrections=[])
    return to_json(standings)


def as_dicts(count: int) -> Any:
    rows = [
        {
            "rank": i,
            "member": f"m{i}",
            "kind": "human",
            **{"points": i, "wins": 1, "finals": 1, "fans": 3, "played": 2},
            "vector": [i, 1, 1, 3, 2],
            "decided_by": "points",
            "rating": {"mu": 25.0, "sigma": 8.0, "ordinal": 1.0},
        }
        for i in range(count)
    ]
    return {"season": 1, "kind": "all", "tiebreak": list(TIEBREAK), "rows": rows}


def timed(build: Callable[[int], Any], count: int, calls: int) -> float:
    began = time.perf_counter()
    for _ in range(calls):
        build(count)
    return (time.perf_counter() - began) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description="Shapes against dictionaries.")
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--calls", type=int, default=2000, help="per figure and round")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    assert as_shapes(args.rows) == as_dicts(args.rows)
    assert [list(r) for r in as_shapes(2)["rows"]] == [list(r) for r in as_dicts(2)["rows"]]
    found: dict[str, list[float]] = {"dicts": [], "shapes": []}
    for _ in range(args.rounds):
        found["dicts"].append(timed(as_dicts, args.rows, args.calls))
        found["shapes"].append(timed(as_shapes, args.rows, args.calls))
    dicts = statistics.median(found["dicts"])
    for name, figures in found.items():
        median = statistics.median(figures)
        print(f"{name:7} {median:8.1f} us per {args.rows}-row body   {median / dicts:5.2f} x")


if __name__ == "__main__":
    main()
