#!/usr/bin/env python
"""Benchmark of the card statistics: what recording them adds to each match, and what reading
them costs once the table is large.

A measurement harness, not a test. Like ``bench_writes.py`` it creates a database of its own
(``bench_<name>`` of ``DATABASE_URL``; a temporary SQLite file without it) and loads the
catalogue, then:

1. plays ``--tournaments`` bot-only tournaments in this process and times the process CPU of
   each call that adds a match's counts (``card_stats_of_match``: the tally and its one upsert)
   and a finished Deck Phase's (``card_stats_of_draft``);
2. seeds the rows ``--matches`` recorded matches (1 million by default) would leave, spread
   over ``--combos`` set combinations: the stored rows are pre-summed, so their number depends
   on the combinations, not the matches — every design and every set gets one row per
   combination and one per kind of player (about 290,000 rows for 1,600 combinations, more than
   the five-of-six additional sets of each box can make; ``--combos 5500`` seeds a million
   rows). Then it times the reads served: a design's figures
   (``GET /api/v1/cards/{key}/stats/``'s selector: the first page of its set combinations),
   the same with every combination in one answer (as before they were paged), and a set's.

It prints p50 / p99 milliseconds (``--json`` for the raw figures).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_card_stats.py --tournaments 4 --matches 1000000
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import Meter, django_test_database, figures, percentile

PLAYERS = ("human", "rookie", "steady", "champion", "robot")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Card statistics: recording CPU, read times.")
    parser.add_argument("--tournaments", type=int, default=4)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--combos", type=int, default=1600)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def record(args: argparse.Namespace, meter: Meter) -> None:
    from tournaments.models import Seat, SeatKind
    from tournaments.services import desk, matchplay
    from tournaments.services.lobby import seat_add_bots, tournament_create
    from tournaments.services.start import tournament_start

    matchplay.card_stats_of_match = meter.wrap("record_match", matchplay.card_stats_of_match)
    desk.card_stats_draft_rows = meter.wrap("record_deck_phase", desk.card_stats_draft_rows)
    for number in range(args.tournaments + 1):  # the first one warms the caches up
        if number == 1:
            meter.cpu.clear()
            meter.sql.clear()
        ticket = tournament_create(host_name="Host", seat_count=args.seats, seed=500 + number)
        seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=args.seats - 1)
        Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
        tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)


def seed_rows(matches: int, combos: int) -> tuple[int, float]:
    """The rows ``matches`` recorded matches leave over ``combos`` set combinations (their
    counts drawn at random, adding up to about that many matches); the rows and the seconds the
    insert took."""
    from django.db import connection, transaction

    from cards.models import Card
    from tournaments.models import CardStat

    designs = [f"{s}/{n}" for s, n in Card.objects.values_list("card_set__name", "name")]
    keys = [*designs, *sorted({key.split("/", 1)[0] for key in designs})]
    sides = 2 * matches / combos / len(PLAYERS)  # a match's two sides, spread evenly
    rng = random.Random(7)
    CardStat.objects.all().delete()
    started = time.perf_counter()
    with transaction.atomic():
        rows = (_row(rng, key, sets, player, sides) for key, sets, player in _grid(keys, combos))
        if connection.vendor == "postgresql":
            _copy(rows)
        else:
            _insert(rows)
    return CardStat.objects.count(), time.perf_counter() - started


def _grid(keys: list[str], combos: int) -> Any:
    for key in keys:
        for player in PLAYERS:
            yield key, "", player
        for combo in range(combos):
            yield key, f"City+combo{combo}", ""


def _row(rng: random.Random, key: str, sets: str, player: str, sides: float) -> tuple[Any, ...]:
    scale = len(PLAYERS) if sets else 1  # a combination's row holds every player's sides
    decks = rng.randint(0, int(sides * scale / 4) + 1)
    offered = rng.randint(0, decks * 2)
    reveals = rng.randint(0, decks * 3)
    return (
        *(key, key.split("/", 1)[0], sets, player),
        *(offered, rng.randint(0, offered), decks, rng.randint(0, decks), reveals),
        *(reveals * 4, reveals, rng.randint(0, reveals)),
    )


COLUMNS = (
    "key, set_name, sets, player, offered, picked, decks, deck_wins, reveals, power_total, "
    "power_count, effects"
)


def _copy(rows: Any) -> None:
    from django.db import connection

    from tournaments.models import CardStat

    table = CardStat._meta.db_table
    with connection.cursor() as cursor:
        raw: Any = cursor.cursor
        with raw.copy(f"COPY {table} ({COLUMNS}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _insert(rows: Any, chunk: int = 5000) -> None:
    from django.db import connection

    from tournaments.models import CardStat

    sql = f"INSERT INTO {CardStat._meta.db_table} ({COLUMNS}) VALUES ({', '.join(['%s'] * 12)})"
    batch: list[tuple[Any, ...]] = []
    with connection.cursor() as cursor:
        for row in rows:
            batch.append(row)
            if len(batch) == chunk:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def time_reads(reads: int) -> dict[str, dict[str, float]]:
    from django.db import connection

    from cards.models import Card, CardSet
    from tournaments.selectors.cardstats import card_stats, set_stats

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE tournaments_cardstat")
    keys = [f"{s}/{n}" for s, n in Card.objects.values_list("card_set__name", "name")]
    sets = list(CardSet.objects.values_list("name", flat=True))
    rng = random.Random(11)
    every = 1_000_000  # every combination in one answer, as before they were paged
    return {
        "card_stats (one design)": _timed(reads, lambda: card_stats(key=rng.choice(keys))),
        "card_stats, unpaged": _timed(reads, lambda: card_stats(key=rng.choice(keys), limit=every)),
        "set_stats (one set)": _timed(
            max(3, reads // 20), lambda: set_stats(name=rng.choice(sets))
        ),
    }


def _timed(times: int, read: Callable[[], Any]) -> dict[str, float]:
    spent, cpu = [], []
    for _ in range(times):
        started, began = time.perf_counter(), time.process_time()
        read()
        spent.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - began) * 1000)
    return {
        "calls": times,
        "ms_p50": round(statistics.median(spent), 2),
        "ms_p99": round(percentile(spent, 0.99), 2),
        "cpu_ms_p50": round(statistics.median(cpu), 2),
    }


def main() -> None:
    args = parse_args()
    meter = Meter()
    with django_test_database():
        from django.db import connection

        from cards.catalogue import catalogue_load

        catalogue_load()
        with connection.execute_wrapper(lambda execute, *rest: meter.count(execute, *rest)):
            record(args, meter)
        count, seconds = seed_rows(args.matches, args.combos)
        result: dict[str, Any] = {
            "recording": figures(meter, digits=3),
            "seeded": {
                **{"matches": args.matches, "combos": args.combos},
                **{"rows": count, "seconds": round(seconds, 1)},
            },
            "reads": time_reads(args.reads),
            "database": {"vendor": connection.vendor},
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    _report(args, result)


def _report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    out = io.StringIO()
    print(
        f"Recording, {args.tournaments} tournaments x {args.seats} bots (CPU of this process):",
        file=out,
    )
    for name, row in result["recording"].items():
        print(
            f"  {name:18} {row['calls']:5.0f} calls  p50 {row['cpu_ms_p50']:6.3f} ms  "
            f"p99 {row['cpu_ms_p99']:6.3f} ms  mean {row['cpu_ms_mean']:6.3f} ms  "
            f"{row['sql_mean']:4.1f} SQL",
            file=out,
        )
    seeded = result["seeded"]
    vendor = result["database"]["vendor"]
    print(
        f"Reads after {seeded['matches']:,} matches over {seeded['combos']:,} set combinations: "
        f"{seeded['rows']:,} rows ({vendor}; seeded in {seeded['seconds']} s):",
        file=out,
    )
    for name, row in result["reads"].items():
        print(
            f"  {name:30} {row['calls']:4.0f} calls  p50 {row['ms_p50']:8.2f} ms  "
            f"p99 {row['ms_p99']:8.2f} ms  (CPU p50 {row['cpu_ms_p50']:6.2f} ms)",
            file=out,
        )
    print(out.getvalue(), end="")


if __name__ == "__main__":
    main()
