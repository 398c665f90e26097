#!/usr/bin/env python
"""How the database grows per match and per tournament, and what archiving old logs saves.

A measurement harness on PostgreSQL (``pg_total_relation_size``: tables, their TOAST and
indexes). It creates a database of its own (``bench_<name>`` of ``DATABASE_URL``), loads the
catalogue, and:

1. plays ``--tournaments`` bot-only tournaments in this process (tasks eager, events unpaced) and
   prints the bytes each table grew by, per recorded match and per tournament;
2. with ``--seed-matches N``, copies those tournaments' rows (the tournament, its matches, their
   events and its log: the tables that grow with play) with SQL until the database holds N
   matches: a synthetic history of finished tournaments;
3. archives every finished tournament's logs (``tournaments.services.archive``), timing it, and
   prints the sizes after it and after ``VACUUM FULL`` of those tables (``--archive-limit N``:
   the first N tournaments only, for a quicker figure; PostgreSQL reuses a deleted row's space
   for new rows at once, but gives it back to the disk only on ``VACUUM FULL``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_storage.py --tournaments 10 --seed-matches 100000 \\
        --archive-limit 2300
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
    from config.celery import app

    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict["TEST"]["NAME"] = f"bench_{old_name}"
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


def columns(model: Any, *skip: str) -> list[str]:
    return [
        f.column for f in model._meta.concrete_fields if not f.primary_key and f.column not in skip
    ]


def copy_tournament(template: int) -> int:
    """One synthetic copy of a finished tournament's growing rows; the new tournament's id."""
    from django.db import connection

    from matches.models import Match, MatchEvent
    from tournaments.models import Tournament, TournamentEvent

    t_cols = ", ".join(columns(Tournament, "code"))
    m_cols = columns(Match, "tournament_id")
    e_cols = ", ".join(columns(MatchEvent, "match_id"))
    l_cols = ", ".join(columns(TournamentEvent, "tournament_id"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO tournaments_tournament ({t_cols}, code) SELECT {t_cols}, "
            "upper(substr(md5(random()::text), 1, 8)) FROM tournaments_tournament WHERE id = %s "
            "RETURNING id",
            [template],
        )
        new = cursor.fetchone()[0]
        cursor.execute(
            f"INSERT INTO tournaments_tournamentevent ({l_cols}, tournament_id) "
            f"SELECT {l_cols}, %s FROM tournaments_tournamentevent WHERE tournament_id = %s",
            [new, template],
        )
        for (old_match,) in _match_ids(cursor, template):
            cursor.execute(
                f"INSERT INTO matches_match ({', '.join(m_cols)}, tournament_id) "
                f"SELECT {', '.join(m_cols)}, %s FROM matches_match WHERE id = %s RETURNING id",
                [new, old_match],
            )
            match = cursor.fetchone()[0]
            cursor.execute(
                f"INSERT INTO matches_matchevent ({e_cols}, match_id) "
                f"SELECT {e_cols}, %s FROM matches_matchevent WHERE match_id = %s",
                [match, old_match],
            )
    return int(new)


def _match_ids(cursor: Any, tournament: int) -> list[tuple[int]]:
    cursor.execute("SELECT id FROM matches_match WHERE tournament_id = %s", [tournament])
    return list(cursor.fetchall())


def seed(templates: list[int], matches: int) -> None:
    from django.db import transaction

    from matches.models import Match

    have = Match.objects.count()
    started = time.perf_counter()
    copies = 0
    while have < matches:
        with transaction.atomic():
            for template in templates:
                copy_tournament(template)
        copies += 1
        have = Match.objects.count()
        if copies % 50 == 0:
            print(f"  seeded {have} matches ({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"Seeded to {have} matches in {time.perf_counter() - started:.0f} s.")


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


def archive_some(limit: int | None) -> None:
    from django.db import connection
    from django.utils import timezone

    from tournaments.services.archive import Archived, tournament_archive, tournaments_to_archive

    before = sizes()
    started = time.perf_counter()
    due = tournaments_to_archive(older_than_days=0, now=timezone.now())[:limit]
    runs = [tournament_archive(tournament_id=tid) for tid in due]
    done = Archived(*(sum(getattr(run, f) for run in runs) for f in Archived.__dataclass_fields__))
    took = time.perf_counter() - started
    after = sizes()
    print(
        f"\nArchived {done.tournaments} tournaments in {took:.1f} s "
        f"({1000 * took / max(done.tournaments, 1):.1f} ms each): {done.log_rows} log rows and "
        f"{done.match_event_rows} match event rows packed"
    )
    print(f"  before:                  {total_mb(before)}")
    print(f"  after (space reusable):  {total_mb(after)}")
    with connection.cursor() as cursor:
        for table in (*GROWING, *ARCHIVES):
            cursor.execute(f"VACUUM FULL {table}")
    print(f"  after VACUUM FULL:       {total_mb(sizes())}")
    for name in ARCHIVES:
        print(f"  {name:34} {sizes().get(name, 0) / 1e6:10.2f} MB")


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
        archive_some(args.archive_limit)


if __name__ == "__main__":
    main()
