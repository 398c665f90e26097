#!/usr/bin/env python
"""Benchmark of lock contention on the card statistics rows: concurrent recorders.

A measurement harness, not a test (PostgreSQL: ``DATABASE_URL``). Each recorded match adds its
counts to the stored rows in the recording transaction (``card_stats_write``), and every match
touches rows others touch too (its sets' rows, the City designs'), so two recorders committing
at once wait for each other's row locks. It creates a database of its own (``bench_<name>``),
loads the catalogue and plays ``--tournaments`` bot tournaments to capture what real matches
add (their rows, their events), then runs ``--recorders`` processes (1, 2 and 4 by default)
replaying them, each match in a transaction of its own that stands for a recording:

- ``baseline``: the match's events inserted (as ``match_store`` writes them) and a row of the
  recorder's own updated (as the tournament's version is), then commit: no shared row;
- ``unlocked``: the same with the match's statistics statement between the two (row locks
  only, as before the writers' lock);
- ``locked``: the same, the statement taking the writers' transaction lock first (as
  ``card_stats_write`` does, now the fold's statement);
- ``deltas``: the same with the match's rows appended as a ``CardStatDelta`` instead, as
  ``card_stats_append`` does now; after the run the fold adds them (``card_stats_fold``, timed
  per match folded).

Each process replays every captured match in its own shuffled order, so all of them touch the
same rows: the worst case, with nothing else between recordings. Spells alternate the modes
(each first in turn) and the recorder counts; the figures are the medians over the spells of
each spell's p50 / p99 transaction time and of the time of the statistics statement itself, and
the deadlocks seen.
"Added" is a mode minus baseline at the same number of recorders; the wait for locks is what
the added time grows by from 1 recorder to N.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_stats_contention.py --spells 5
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import django_test_database, percentile

MODES = ("baseline", "unlocked", "locked", "deltas")
APPEND = "INSERT INTO tournaments_cardstatdelta (rows, created_at) VALUES (%s, now())"
Captured = list[tuple[str, str]]  # per match: the rows it adds, its events (JSON texts)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Card statistics: concurrent recorders.")
    parser.add_argument("--tournaments", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--recorders", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--matches", type=int, default=150, help="per recorder and spell")
    parser.add_argument("--spells", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def capture(args: argparse.Namespace) -> Captured:
    """Play bot tournaments; what each recorded match added and the events it stored."""
    import json as jsonlib

    from cards.catalogue import catalogue_load
    from tournaments.models import Seat, SeatKind
    from tournaments.rules.cardstats import tally_rows
    from tournaments.services import cardstats, matchplay
    from tournaments.services.lobby import seat_add_bots, tournament_create
    from tournaments.services.start import tournament_start

    catalogue_load()
    captured: Captured = []
    recorded = matchplay.card_stats_of_match

    def keep(tournament: Any, match: Any, result: Any) -> None:
        rows = tally_rows(cardstats._match_tally(match, result), cardstats._match_sets(match))
        events = [dict(event) for event in result.events]
        captured.append((jsonlib.dumps(rows), jsonlib.dumps(events, default=str)))
        recorded(tournament, match, result)

    matchplay.card_stats_of_match = keep
    for number in range(args.tournaments):
        ticket = tournament_create(host_name="Host", seat_count=args.seats, seed=700 + number)
        seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=args.seats - 1)
        Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
        tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    matchplay.card_stats_of_match = recorded
    if not captured:
        from matches.models import Match
        from tournaments.models import Tournament

        raise SystemExit(
            f"no match recorded: {list(Tournament.objects.values_list('status', 'round'))} "
            f"{list(Match.objects.values_list('status', flat=True))}"
        )
    return captured


SCRATCH = (
    "CREATE TABLE IF NOT EXISTS bench_events (id bigserial PRIMARY KEY, recorder int, "
    "seq int, payload jsonb)",
    "CREATE TABLE IF NOT EXISTS bench_recorders (id int PRIMARY KEY, version bigint)",
)
EVENTS = (
    "INSERT INTO bench_events (recorder, seq, payload) "
    "SELECT %s, ordinality, value FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY"
)


def recorder(job: dict[str, Any], start: Any, out: Any) -> None:
    """One recording process (spawned; plain psycopg, the writer's own statements): each match
    in its own transaction; its times and its deadlocks."""
    import psycopg
    from psycopg import errors

    spent, statement, deadlocks = [], [], 0
    number = job["number"]
    with psycopg.connect(job["dsn"], autocommit=True) as connection:
        connection.execute(
            "INSERT INTO bench_recorders VALUES (%s, 0) ON CONFLICT DO NOTHING", [number]
        )
        start.wait()
        for rows, events in job["work"]:
            began = time.perf_counter()
            try:
                with connection.transaction():
                    connection.execute(EVENTS, [number, events])
                    if job["upsert"]:
                        upsert = time.perf_counter()
                        connection.execute(job["upsert"], [rows])
                        statement.append((time.perf_counter() - upsert) * 1000)
                    connection.execute(
                        "UPDATE bench_recorders SET version = version + 1 WHERE id = %s", [number]
                    )
            except errors.DeadlockDetected:
                deadlocks += 1
            spent.append((time.perf_counter() - began) * 1000)
    out.put({"spent": spent, "statement": statement, "deadlocks": deadlocks})


def run(captured: Captured, recorders: int, mode: str, matches: int, seed: int) -> dict:
    """``recorders`` processes replaying ``matches`` captured matches each, released at once,
    in ``mode`` (see ``MODES``)."""
    from tournaments.services.cardstats import _upsert_sql

    locked = mode == "locked"
    upsert = {"baseline": "", "deltas": APPEND}.get(mode) or _upsert_sql(
        "postgresql", locked=locked
    )
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(recorders), context.Queue()
    processes = []
    for number in range(recorders):
        rng = random.Random(seed * 100 + number)
        work = [rng.choice(captured) for _ in range(matches)]
        job = {"dsn": _dsn(), "number": number, "work": work, "upsert": upsert}
        process = context.Process(target=recorder, args=(job, start, out))
        process.start()
        processes.append(process)
    results = [out.get(timeout=600) for _ in processes]
    for process in processes:
        process.join()
    spent = [t for result in results for t in result["spent"]]
    statement = [t for result in results for t in result["statement"]]
    return {
        "p50": statistics.median(spent),
        "p99": percentile(spent, 0.99),
        "statement_p50": statistics.median(statement) if statement else 0.0,
        "statement_p99": percentile(statement, 0.99) if statement else 0.0,
        "deadlocks": sum(result["deadlocks"] for result in results),
    }


def _dsn() -> str:
    from django.db import connection

    params = connection.get_connection_params()
    keys = ("host", "port", "user", "password", "dbname")
    return " ".join(f"{key}={params[key]}" for key in keys if params.get(key))


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from django.db import connection

    assert connection.vendor == "postgresql", "row locks need PostgreSQL (set DATABASE_URL)"
    captured = capture(args)
    with connection.cursor() as cursor:
        for statement in SCRATCH:
            cursor.execute(statement)
    spells: dict[str, list[dict[str, Any]]] = {}
    for spell in range(args.spells):
        for recorders in args.recorders:
            turn = spell % len(MODES)  # each mode first in turn: none always runs after a fold
            for mode in MODES[turn:] + MODES[:turn]:
                figures = run(captured, recorders, mode, args.matches, spell)
                if mode == "deltas":
                    figures |= _fold()
                spells.setdefault(f"{mode}/{recorders}", []).append(figures)
    return {
        "captured_matches": len(captured),
        "rows_per_match": round(statistics.mean(len(json.loads(rows)) for rows, _ in captured), 1),
        "runs": {name: _medians(runs) for name, runs in spells.items()},
    }


def _fold() -> dict[str, float]:
    """Fold what a deltas run appended, as the task does: ms per recording folded."""
    from tournaments.services.cardstats import card_stats_fold

    started = time.perf_counter()
    folded = card_stats_fold()
    return {"fold_ms_per_match": (time.perf_counter() - started) * 1000 / max(1, folded)}


def _medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    names: tuple[str, ...] = ("p50", "p99", "statement_p50", "statement_p99")
    if "fold_ms_per_match" in runs[0]:
        names += ("fold_ms_per_match",)
    medians = {name: round(statistics.median(run[name] for run in runs), 2) for name in names}
    return {**medians, "deadlocks": sum(run["deadlocks"] for run in runs)}


def main() -> None:
    args = parse_args()
    with django_test_database():
        result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    _report(args, result)


def _report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    runs, first = result["runs"], args.recorders[0]
    print(
        f"{result['captured_matches']} captured matches ({result['rows_per_match']} rows added "
        f"each), {args.matches} per recorder, medians of {args.spells} spells (ms):"
    )
    for recorders in args.recorders:
        base = runs[f"baseline/{recorders}"]
        print(f"  {recorders} recorder(s): baseline p50 {base['p50']:6.2f} p99 {base['p99']:7.2f}")
        for mode in MODES[1:]:
            row = runs[f"{mode}/{recorders}"]
            added = row["p50"] - base["p50"]
            alone = runs[f"{mode}/{first}"]["p50"] - runs[f"baseline/{first}"]["p50"]
            print(
                f"    {mode:9} p50 {row['p50']:6.2f} p99 {row['p99']:7.2f} | statement p50 "
                f"{row['statement_p50']:5.2f} p99 {row['statement_p99']:6.2f} | added p50 "
                f"{added:5.2f} (wait {added - alone:+6.2f}) | deadlocks {row['deadlocks']}"
                + (f" | fold {row['fold_ms_per_match']:.2f} ms/match" if mode == "deltas" else "")
            )


if __name__ == "__main__":
    main()
