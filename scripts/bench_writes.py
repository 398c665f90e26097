#!/usr/bin/env python
"""Benchmark of the write path: a bot's whole Deck Phase and a match played, recorded, released.

A measurement harness, not a test. It creates a database of its own (``bench_<name>`` of
``DATABASE_URL``, PostgreSQL recommended; a temporary SQLite file without it), loads the
catalogue and plays ``--tournaments`` bot-only tournaments in this process (tasks run eagerly,
events are not paced), timing the process CPU each service call costs itself (calls it
triggers are counted on their own, not in their caller) and the SQL statements it sends:

- ``bot_deck_phase``: one bot's whole Deck Phase (every action, saved);
- ``bot_task``: what a task playing a round's bot seats costs besides their phases (the lock,
  the seats' read, the phase's close);
- ``match_play``: one match run by the engine, recorded, released (its result applied); a
  round's matches are played by one call (``matches_play``, a transaction per match), whose
  figures are shared evenly among them;
- ``round_close``: the round's close and the next Deck Phase's opening, after the last release:
  in the bots' transaction that follows when the task plays them, else in one of its own.

It prints p50 / p99 / mean CPU milliseconds and SQL statements per call, and everything metered
per match played (``all, per match``; ``--json`` for the raw figures). Compare two versions by
running it on each, one after the other, on the same machine.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_writes.py --tournaments 6 --seats 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="CPU and SQL per write of the game server.")
    parser.add_argument("--tournaments", type=int, default=6)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--dump", type=Path, help="write every row the tournaments left (no ids, no clocks)"
    )
    return parser.parse_args()


class Meter:
    """Exclusive CPU time and SQL count per named call (nested calls are taken out)."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.sql: dict[str, list[float]] = defaultdict(list)
        self.stack: list[list[float]] = []  # [child cpu, child sql] of each open call
        self.queries = 0

    def wrap(
        self, name: str, func: Callable[..., Any], *, calls: Callable[..., int] | None = None
    ) -> Callable[..., Any]:
        """``func`` metered under ``name``; ``calls(*args, **kwargs)``: how many calls one is
        worth (its figures shared evenly among them)."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            self.stack.append([0.0, 0.0])
            began, queries = time.process_time(), self.queries
            try:
                return func(*args, **kwargs)
            finally:
                spent, sent = time.process_time() - began, self.queries - queries
                child_cpu, child_sql = self.stack.pop()
                share = max(1, calls(*args, **kwargs)) if calls else 1
                self.cpu[name] += [(spent - child_cpu) * 1000 / share] * share
                self.sql[name] += [int(sent - child_sql) / share] * share
                if self.stack:
                    self.stack[-1][0] += spent
                    self.stack[-1][1] += sent

        return timed

    def count(self, execute: Callable[..., Any], *args: Any) -> Any:
        self.queries += 1
        return execute(*args)


@contextmanager
def django_test_database() -> Iterator[None]:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    settings.MATCH_EVENT_PACE_SECONDS = 0
    settings.TASK_RUNNER = "celery"
    settings.TRUST_HOST_SEED = True
    from server.celery import app

    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    # A database of this process's own: never the test suite's, nor another benchmark's that
    # runs beside it on another xdist worker.
    if connection.vendor == "sqlite":
        test_name = str(Path(tempfile.mkdtemp(prefix="bench-")) / "bench.sqlite3")
    else:
        test_name = f"bench_{old_name}_{os.getpid()}"
    connection.settings_dict["TEST"]["NAME"] = test_name
    connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def play(args: argparse.Namespace, meter: Meter) -> None:
    from django.db import connection

    from cards.catalogue import catalogue_load
    from tournaments.models import Seat, SeatKind
    from tournaments.services import deck, matchplay
    from tournaments.services.lobby import seat_add_bots, tournament_create
    from tournaments.services.start import tournament_start

    catalogue_load()
    deck.autoplay = meter.wrap("bot_deck_phase", deck.autoplay)
    deck.bot_deck_phases = meter.wrap("bot_task", deck.bot_deck_phases)
    matchplay.matches_play = meter.wrap(
        "match_play", matchplay.matches_play, calls=lambda **kw: len(kw["match_ids"])
    )
    deck.round_owed_close = meter.wrap("round_close", deck.round_owed_close)
    matchplay.round_close = meter.wrap("round_close", matchplay.round_close)
    with connection.execute_wrapper(lambda execute, *rest: meter.count(execute, *rest)):
        for number in range(args.tournaments + 1):  # the first one warms the caches up
            if number == 1:
                meter.cpu.clear()
                meter.sql.clear()
            ticket = tournament_create(
                host_name="Host", seat_count=args.seats, seed=args.seed + number
            )
            seat_add_bots(
                tournament_id=ticket.tournament.pk, seat=ticket.seat, count=args.seats - 1
            )
            Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
            tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)


def dump_rows(path: Path) -> None:
    """Every row of the played tournaments, without ids and clock times, in a stable order: two
    versions of the code that write the same game write the same file (``written_rows``)."""
    from written_rows import written_rows

    path.write_text(json.dumps(written_rows(), indent=1, sort_keys=True, default=str))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def figures(meter: Meter, digits: int = 2) -> dict[str, dict[str, float]]:
    """Per named call: calls, CPU ms (p50, p99, mean, to ``digits``) and mean SQL statements."""
    return {
        name: {
            "calls": len(values),
            "cpu_ms_p50": round(statistics.median(values), digits),
            "cpu_ms_p99": round(percentile(values, 0.99), digits),
            "cpu_ms_mean": round(statistics.fmean(values), digits),
            "sql_mean": round(statistics.fmean(meter.sql[name]), 1),
        }
        for name, values in sorted(meter.cpu.items())
    }


def main() -> None:
    args = parse_args()
    meter = Meter()
    with django_test_database():
        play(args, meter)
        if args.dump:
            dump_rows(args.dump)
    result = figures(meter)
    matches = result.get("match_play", {}).get("calls", 0)
    if matches:  # everything metered, shared among the matches played
        result["all, per match"] = {
            "calls": matches,
            "cpu_ms_mean": round(sum(sum(v) for v in meter.cpu.values()) / matches, 2),
            "sql_mean": round(sum(sum(v) for v in meter.sql.values()) / matches, 1),
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.tournaments} tournaments x {args.seats} bot seats, CPU of this process")
    for name, row in result.items():
        if "cpu_ms_p50" not in row:
            print(f"{name:15} {row['cpu_ms_mean']:7.2f} ms  {row['sql_mean']:6.1f} SQL")
            continue
        print(
            f"{name:15} {row['calls']:5.0f} calls  p50 {row['cpu_ms_p50']:7.2f} ms  "
            f"p99 {row['cpu_ms_p99']:7.2f} ms  mean {row['cpu_ms_mean']:7.2f} ms  "
            f"{row['sql_mean']:6.1f} SQL"
        )


if __name__ == "__main__":
    main()
