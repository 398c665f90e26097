#!/usr/bin/env python
"""How the database grows per match and per tournament, and what archiving old logs saves.

A measurement harness on PostgreSQL (``pg_total_relation_size``: tables, their TOAST and
indexes). It creates a database of its own (``bench_<name>`` of ``DATABASE_URL``), loads the
catalogue, and:

1. plays ``--tournaments`` bot-only tournaments in this process (tasks eager, events unpaced) and
   prints the bytes each table grew by, per recorded match and per tournament;
2. with ``--seed-matches N``, copies those tournaments' rows (the tournament, its trophies, its
   matches, their events and its log: the tables that grow with play) with set-based SQL until
   the database holds N matches: a synthetic history of finished tournaments;
3. archives every finished tournament's logs as ``archive_events`` does
   (``tournaments.services.archive``, in its batches), timing it, and prints the sizes after it
   and after ``VACUUM FULL`` of those tables (``--archive-limit N``: the first N tournaments
   only, for a quicker figure; PostgreSQL reuses a deleted row's space for new rows at once, but
   gives it back to the disk only on ``VACUUM FULL``);
4. verifies (``tournament_verify``: seed, trophies, every match replayed from its archive) the
   played tournaments and ``--verify-sample`` random copies.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_storage.py --tournaments 10 --seed-matches 100000
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ARCHIVES = ("tournaments_tournamenteventarchive", "matches_matcheventarchive")
GROWING = (
    "tournaments_tournament",
    "matches_match",
    "matches_matchevent",
    "tournaments_tournamentevent",
)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=10, help="Played for real (default 10).")
    parser.add_argument("--seats", type=int, default=4, help="Seats per tournament (default 4).")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument(
        "--seed-matches", type=int, default=0, help="Copy rows up to this many matches in all."
    )
    parser.add_argument(
        "--archive-limit", type=int, default=None, help="Archive only this many tournaments."
    )
    parser.add_argument(
        "--verify-sample", type=int, default=100, help="Copies verified after (default 100)."
    )
    return parser.parse_args()


@contextmanager
def bench_database() -> Iterator[None]:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)  # tasks in this process
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("bench_storage measures PostgreSQL: set DATABASE_URL=postgres://…")
    settings.MATCH_EVENT_PACE_SECONDS = 0
    settings.TASK_RUNNER = "celery"
    settings.TRUST_HOST_SEED = True
    from server.celery import app

    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict["TEST"]["NAME"] = f"bench_{old_name}_{os.getpid()}"
    connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def sizes() -> dict[str, int]:
    """Bytes of every table of the public schema: heap, TOAST and indexes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )
        return dict(cursor.fetchall())


def counts() -> dict[str, int]:
    from matches.models import Match, MatchEvent
    from tournaments.models import Tournament, TournamentEvent

    return {
        "tournaments": Tournament.objects.count(),
        "matches": Match.objects.count(),
        "match events": MatchEvent.objects.count(),
        "log events": TournamentEvent.objects.count(),
    }


def play(args: argparse.Namespace) -> list[int]:
    from tournaments.models import Seat, SeatKind
    from tournaments.services.lobby import seat_add_bots, tournament_create
    from tournaments.services.start import tournament_start

    ids = []
    for number in range(args.tournaments):
        ticket = tournament_create(host_name="Host", seat_count=args.seats, seed=args.seed + number)
        tid = ticket.tournament.pk
        seat_add_bots(tournament_id=tid, seat=ticket.seat, count=args.seats - 1)
        Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
        tournament_start(tournament_id=tid, seat=ticket.seat)
        ids.append(tid)
    return ids


def names(model: Any, *skip: str) -> list[str]:
    """A model's columns but its primary key and ``skip``."""
    return [
        f.column for f in model._meta.concrete_fields if not f.primary_key and f.column not in skip
    ]


def copy_sql() -> list[str]:
    """Statements that copy the templates' growing rows ``%(copies)s`` times, set-based: id maps
    first (ids drawn from the tables' sequences), then one ``INSERT … SELECT`` a table."""
    from matches.models import Match, MatchEvent
    from tournaments.models import Tournament, TournamentEvent, Trophy

    def cols(model: Any, *skip: str) -> tuple[str, str]:
        """The columns to insert, and the same read from the template row ``x``."""
        quoted = [f'"{name}"' for name in names(model, *skip)]
        return ", ".join(quoted), ", ".join(f"x.{name}" for name in quoted)

    t_in, t_out = cols(Tournament, "code")
    m_in, m_out = cols(Match, "tournament_id")
    e_in, e_out = cols(MatchEvent, "match_id")
    l_in, l_out = cols(TournamentEvent, "tournament_id")
    p_in, p_out = cols(Trophy, "tournament_id")
    return [
        "CREATE TEMP TABLE tmap ON COMMIT DROP AS SELECT x.id AS old, "
        "nextval(pg_get_serial_sequence('tournaments_tournament', 'id')) AS new "
        "FROM tournaments_tournament x, generate_series(1, %(copies)s) WHERE x.id = ANY(%(ids)s)",
        # A code from the new id: unique, where random ones collide once in ~200 runs.
        f"INSERT INTO tournaments_tournament (id, {t_in}, code) SELECT m.new, {t_out}, "
        "'S' || lpad(to_hex(m.new), 7, '0') "
        "FROM tournaments_tournament x JOIN tmap m ON m.old = x.id",
        f"INSERT INTO tournaments_trophy ({p_in}, tournament_id) SELECT {p_out}, m.new "
        "FROM tournaments_trophy x JOIN tmap m ON m.old = x.tournament_id",
        "CREATE TEMP TABLE mmap ON COMMIT DROP AS SELECT x.id AS old, m.new AS tournament, "
        "nextval(pg_get_serial_sequence('matches_match', 'id')) AS new "
        "FROM matches_match x JOIN tmap m ON m.old = x.tournament_id",
        f"INSERT INTO matches_match (id, {m_in}, tournament_id) SELECT mm.new, {m_out}, "
        "mm.tournament FROM matches_match x JOIN mmap mm ON mm.old = x.id",
        f"INSERT INTO matches_matchevent ({e_in}, match_id) SELECT {e_out}, mm.new "
        "FROM matches_matchevent x JOIN mmap mm ON mm.old = x.match_id",
        f"INSERT INTO tournaments_tournamentevent ({l_in}, tournament_id) SELECT {l_out}, m.new "
        "FROM tournaments_tournamentevent x JOIN tmap m ON m.old = x.tournament_id",
    ]


def seed(templates: list[int], matches: int, chunk: int = 50) -> None:
    """Copy the templates until the database holds ``matches`` matches, ``chunk`` copies of
    each a transaction."""
    from django.db import connection, transaction

    from matches.models import Match

    per_copy = Match.objects.filter(tournament_id__in=templates).count()
    owed = -(-(matches - Match.objects.count()) // per_copy)
    statements = copy_sql()
    started = time.perf_counter()
    while owed > 0:
        with transaction.atomic(), connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql, {"copies": min(chunk, owed), "ids": templates})
        owed -= chunk
        print(f"  seeded {Match.objects.count()} matches ({time.perf_counter() - started:.0f} s)")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"Seeded to {Match.objects.count()} matches in {time.perf_counter() - started:.0f} s.")


def report(
    title: str, before: dict[str, int], after: dict[str, int], played: dict[str, int]
) -> None:
    print(f"\n{title}")
    grown = {name: after.get(name, 0) - before.get(name, 0) for name in after}
    total = sum(grown.values())
    for name, size in sorted(grown.items(), key=lambda item: -item[1])[:8]:
        print(f"  {name:34} {size / 1e6:10.2f} MB  {100 * size / max(total, 1):5.1f} %")
    print(f"  {'all tables':34} {total / 1e6:10.2f} MB")
    print(
        f"  per tournament {total / max(played['tournaments'], 1) / 1e3:8.1f} kB;"
        f" per match {total / max(played['matches'], 1) / 1e3:8.1f} kB"
    )


def total_mb(sized: dict[str, int]) -> str:
    growing = sum(sized.get(name, 0) for name in GROWING)
    return (
        f"{sum(sized.values()) / 1e6:.1f} MB in all, {growing / 1e6:.1f} MB in the growing tables"
    )


def archive_all(limit: int | None) -> None:
    """Archive as ``archive_events --older-than 0`` does (``BATCH`` tournaments a transaction),
    timed, with the sizes before, after, and after ``VACUUM FULL``."""
    from django.db import connection
    from django.utils import timezone

    from tournaments.services.archive import BATCH, Archived, tournaments_archive
    from tournaments.services.archive import tournaments_to_archive as due_now

    before = sizes()
    started = time.perf_counter()
    due = due_now(older_than_days=0, now=timezone.now())[:limit]
    done = Archived(0, 0, 0)
    for start in range(0, len(due), BATCH):
        done += tournaments_archive(tournament_ids=due[start : start + BATCH])
        if (start // BATCH) % 10 == 9:
            print(f"  archived {done.tournaments} ({time.perf_counter() - started:.0f} s)")
    took = time.perf_counter() - started
    after = sizes()
    rows = done.log_rows + done.match_event_rows
    print(
        f"\nArchived {done.tournaments} tournaments in {took:.1f} s "
        f"({done.tournaments / took:.1f} tournaments/s, {rows / took:,.0f} rows/s): "
        f"{done.log_rows} log rows and {done.match_event_rows} match event rows packed"
    )
    print(f"  before:                  {total_mb(before)}")
    print(f"  after (space reusable):  {total_mb(after)}")
    started = time.perf_counter()
    quiet_database()
    with connection.cursor() as cursor:
        for table in (*GROWING, *ARCHIVES):
            cursor.execute(f"VACUUM FULL {table}")
    print(f"  after VACUUM FULL:       {total_mb(sizes())} ({time.perf_counter() - started:.0f} s)")
    vacuumed = sizes()
    for name in (*GROWING, *ARCHIVES):
        was, now = before.get(name, 0) / 1e6, vacuumed.get(name, 0) / 1e6
        print(f"  {name:34} {was:10.2f} MB -> {now:8.2f} MB")


def quiet_database(wait: float = 300) -> None:
    """Wait (up to ``wait`` s) until no other session of this database holds a snapshot: rows
    deleted after its snapshot was taken are still "recently dead" to ``VACUUM FULL``, which then
    keeps them (autovacuum's ANALYZE of the freshly seeded tables is one such session)."""
    from django.db import connection

    deadline = time.monotonic() + wait
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL"
            )
            if not cursor.fetchone()[0]:
                return
            time.sleep(1)


def verify_sample(templates: list[int], sample: int) -> None:
    """``tournament_verify`` (seed, trophies, every match replayed from its archive) on the
    played tournaments and ``sample`` random copies."""
    import random

    from tournaments.models import Tournament
    from tournaments.services.fairness import tournament_verify

    copies = list(Tournament.objects.exclude(pk__in=templates).values_list("pk", flat=True))
    chosen = templates + random.Random(1).sample(copies, min(sample, len(copies)))
    started = time.perf_counter()
    failed = [tid for tid in chosen if not tournament_verify(tournament_id=tid).ok]
    print(
        f"\nVerified {len(chosen)} archived tournaments ({len(templates)} played, the rest "
        f"copies) in {time.perf_counter() - started:.0f} s: {len(failed)} failed {failed[:10]}"
    )


def main() -> None:
    args = parse_args()
    with bench_database():
        logging.disable(logging.INFO)  # the tasks' lines, thousands of them
        from cards.catalogue import catalogue_load

        catalogue_load()
        empty = sizes()
        templates = play(args)
        played = counts()
        print(f"Played {played}")
        report("Growth from the empty database (catalogue loaded):", empty, sizes(), played)
        if args.seed_matches:
            seed(templates, args.seed_matches)
            print(f"Seeded: {counts()}")
            print(f"  {total_mb(sizes())}")
        archive_all(args.archive_limit)
        verify_sample(templates, args.verify_sample)


if __name__ == "__main__":
    main()
