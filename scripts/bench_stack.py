#!/usr/bin/env python
"""Benchmark of the full stack: bot-only tournaments played at once, in steady spells.

A measurement harness, not a test and not a way to play: an organizer (no seat of its own)
creates bot-only tournaments through the services, so that no client has to drive anyone and the
Celery workers do everything — every bot's Deck Phase, every match, every round's close. It starts
its own processes on the full stack:

- ``--workers`` Celery workers (``celery -A server worker -P prefork -c <concurrency>``),
- ``--daphnes`` Daphne processes, each on a free port, serving the live stream
  ``/ws/tournaments/{id}/``; the spectators are spread over them in turn, as a proxy in front of
  them would spread its connections (compose runs one port for the whole stack),
- one more Daphne serving a bare echo consumer (``bench_anchors.py``),

against PostgreSQL (a database of its own, ``<DATABASE_URL's name>_bench``, created, migrated and
loaded with the catalogue when missing) and Redis (``REDIS_URL``'s database, a test's that of its
xdist worker, or ``--redis-db``), with ``MATCH_EVENT_PACE_MS=0`` and DEBUG off.

It runs ``--repeat`` spells. A spell first measures the machine's anchors (``bench_anchors``: a
bare Channels echo's round trip through the channel layer and Daphne, a no-op Celery task's
round trip through the broker, a fixed pure-Python workload's CPU), then keeps
``--tournaments`` tournaments of ``--seats`` bots in play — each one that ends is replaced —
until ``--spell-seconds`` have passed or
``--spell-matches`` matches have finished (``0 0``: the first ``--tournaments`` only), then plays
one ``--solo-seats`` tournament alone. One WebSocket spectator per tournament is connected to
Daphne before its start; the tournaments are opened and started from a process of their own (as
the API's processes would start them), so that their CPU never holds up the clients and delays
the arrival times they record. Each spell measures:

- matches per second, from the first start to the last ``tournament_finished`` frame received;
- the delay between a match event being stored (``TournamentEvent.visible_at``, stamped by the
  worker in the transaction that records the match: the delay includes that transaction's commit,
  the channel-layer nudge, Daphne reading the log and the socket) and the WebSocket client
  receiving it: p50 and p99 over every ``match_event`` frame;
- the workers' CPU per match; the solo tournament's time from its start to its champion;
- whether each client received exactly the tournament's public events, in order, none twice.

The clients' process collects no garbage while it measures (``uncollected``): a full collection
of its heap stalled every socket for 100-160 ms, a client's pause the server had no part in.

It prints each spell, then the median and the spread (min-max) of every figure over the spells,
and the figures as ratios of the same spell's anchors (a figure of a loaded machine moves with
its anchors; the ratio moves less).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
    REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python scripts/bench_stack.py --repeat 3

Everything runs on this one machine, so the workers, Daphne, PostgreSQL, Redis and the clients
share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_anchors import celery_round_trips, echo_round_trips, percentile, python_cpu_ms
from stack import (
    ROOT,
    Stack,
    cpu_seconds,
    free_port,
    interrupts_unwind,
    prepare_database,
    running,
    stack_environment,
)

SCRIPTS = Path(__file__).resolve().parent


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Bot-only tournaments on the full stack.")
    parser.add_argument("--tournaments", type=int, default=8, help="in play at once (default 8)")
    parser.add_argument("--seats", type=int, default=4, help="bots per tournament (default 4)")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--daphnes", type=int, default=1, help="Daphne processes")
    parser.add_argument("--concurrency", type=int, default=2, help="pool size of each worker")
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="niceness of the workers (default 10, as docker-compose.yml runs them; 0: none)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="spells (default 1)")
    parser.add_argument(
        "--spell-seconds", type=float, default=30, help="a spell's play, at least (default 30)"
    )
    parser.add_argument(
        "--spell-matches", type=int, default=1000, help="or its matches, at least (default 1000)"
    )
    parser.add_argument(
        "--solo-seats", type=int, default=8, help="the lone tournament's bots (0: none)"
    )
    parser.add_argument(
        "--redis-db", type=int, default=None, help="Redis database number (default: REDIS_URL's)"
    )
    parser.add_argument("--timeout", type=float, default=600, help="give up a spell after (s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first tournament")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    return parser.parse_args()


def bench_environment(args: argparse.Namespace) -> dict[str, str]:
    """The environment of every process of the benchmark: its own database and Redis db."""
    database, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database or not redis:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark is of the full stack.")
    db_url = urlsplit(database)
    name = db_url.path.lstrip("/") + "_bench"
    if args.redis_db is not None:
        redis = urlunsplit(urlsplit(redis)._replace(path=f"/{args.redis_db}"))
    return stack_environment(
        urlunsplit(db_url._replace(path=f"/{name}")),
        redis,
        SECRET_KEY="bench-stack-only",
        PYTHONPATH=f"{ROOT}{os.pathsep}{SCRIPTS}",  # the anchor Daphne serves bench_anchors
    )


def bench_stack(args: argparse.Namespace, env: dict[str, str], logs: Path) -> Stack:
    """The workers (at ``--worker-nice``), the Daphnes, each on a free port, and the echo's."""
    stack = Stack(env, logs)
    for number in range(args.workers):
        stack.add_worker(f"bench-{number}", concurrency=args.concurrency, nice=args.worker_nice)
    for number in range(args.daphnes):
        stack.add_daphne(f"daphne-{number}", free_port())
    port = free_port()
    daphne = str(Path(sys.executable).parent / "daphne")
    stack.add("echo", [daphne, "-b", "127.0.0.1", "-p", str(port), "bench_anchors:application"],
              port=port)  # fmt: skip
    return stack


def cpu_split(stack: Stack) -> tuple[float, float, float]:
    """CPU seconds so far of the workers, the Daphnes and this process (the clients)."""
    workers = sum(cpu_seconds(s.pid) for s in stack.of_kind("bench-"))
    daphnes = sum(cpu_seconds(s.pid) for s in stack.of_kind("daphne-"))
    return workers, daphnes, time.process_time()


def purge_queue() -> None:
    """Drop tasks a previous, interrupted run may have left in the benchmark's queue."""
    from server.celery import app

    app.control.purge()


@dataclass
class Tournament:
    id: int
    frames: list[tuple[int, str, float]] = field(default_factory=list)  # (seq, kind, received)
    finished_at: float | None = None


def starter_loop(token: str, seed: int, opened: Any, commands: Any) -> None:
    """In a process of its own (``Starter``): ``("open", seats)`` opens a lobby full of bots and
    puts its id on ``opened``; ``("start", id)`` starts it as its organizer; ``None`` ends."""
    import django

    django.setup()
    from tournaments.selectors.viewers import organizer_of_token
    from tournaments.services.lobby import seat_add_bots, tournament_organize
    from tournaments.services.start import tournament_start

    organizer = organizer_of_token(token)
    for kind, value in iter(commands.get, None):
        if kind == "open":
            lobby = tournament_organize(organizer=organizer, seat_count=value, seed=seed)
            seat_add_bots(tournament_id=lobby.pk, seat=organizer, count=value)
            opened.put(lobby.pk)
            seed += 1
        else:
            tournament_start(tournament_id=value, seat=organizer)


class Starter:
    """Opens and starts the tournaments as their organizer, as the API's processes would: the
    starts' CPU must not hold up this process's clients and delay the arrival times they
    record. A lobby is opened ahead of each one started."""

    def __init__(self, seed: int) -> None:
        from tournaments.services.organizers import organizer_create

        context = multiprocessing.get_context("spawn")
        self.opened, self.commands = context.Queue(), context.Queue()
        token = organizer_create(username=f"bench-organizer-{time.time_ns()}")
        self.process = context.Process(
            target=starter_loop, args=(token, seed, self.opened, self.commands)
        )
        self.process.start()

    def open(self, seats: int, count: int = 1) -> None:
        for _ in range(count):
            self.commands.put(("open", seats))

    async def opened_id(self) -> int:
        tournament_id: int = await asyncio.to_thread(self.opened.get, True, 60)
        return tournament_id

    def start(self, tournament_id: int) -> None:
        self.commands.put(("start", tournament_id))

    def close(self) -> None:
        self.commands.put(None)
        self.process.join(timeout=60)


async def watch(port: int, tournament: Tournament, connected: asyncio.Event) -> None:
    """A spectator of one tournament: every frame's seq, kind and arrival time, to the end."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    url = f"ws://127.0.0.1:{port}/ws/tournaments/{tournament.id}/"
    origin = Origin(f"http://127.0.0.1:{port}")  # Channels refuses sockets of unknown origin
    async with connect(url, origin=origin, max_queue=None) as socket_:
        connected.set()
        async for raw in socket_:
            received = time.time()
            frame = json.loads(raw)
            if frame.get("type") != "event":
                raise RuntimeError(f"tournament {tournament.id}: {frame}")
            tournament.frames.append((frame["seq"], frame["kind"], received))
            if frame["kind"] == "tournament_finished":
                tournament.finished_at = received
                return


@dataclass
class Play:
    """What one stretch of play did: its tournaments, when it began, the CPU it cost, what the
    database counted meanwhile and the most connections it had open."""

    tournaments: list[Tournament]
    began: float
    cpu: list[float]  # workers, Daphnes, clients, PostgreSQL's backends
    database: dict[str, float]
    connections: int


COUNTERS = ("xact_commit", "tup_inserted", "tup_updated", "tup_fetched")


def database_counters() -> dict[str, float]:
    """The benchmark database's transactions, rows and bytes so far (``pg_stat_database``,
    ``pg_database_size``); the statistics are flushed by each backend as it goes idle."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cols = ", ".join(COUNTERS)
        cursor.execute(
            f"SELECT {cols}, pg_database_size(datname) FROM pg_stat_database "
            "WHERE datname = current_database()"
        )
        row = cursor.fetchone()
    return dict(zip((*COUNTERS, "bytes"), map(float, row), strict=True))


def database_cpu() -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the benchmark database (the server
    runs on this machine: its processes are read from ``/proc``)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        pids = [pid for (pid,) in cursor.fetchall()]
    return {pid: cpu_seconds(pid) for pid in pids}


T = TypeVar("T")


async def in_thread(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)`` in a thread of the default executor, its database connection handed back
    to the pool afterwards (a thread keeps its own: spells of many calls emptied the pool)."""

    def closing() -> T:
        from django.db import connections

        try:
            return func(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(closing)


def database_connections() -> int:
    """Connections open to the benchmark database now (every process of the stack)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        (count,) = cursor.fetchone()
    return int(count)


def finished_matches(ids: list[int]) -> int:
    from matches.models import Match, MatchStatus

    return Match.objects.filter(tournament_id__in=ids, status=MatchStatus.FINISHED).count()


async def play(
    args: argparse.Namespace, ports: list[int], stack: Stack, starter: Starter, *, solo: bool
) -> Play:
    """Keep ``--tournaments`` in play (replacing each that ends) until the spell's seconds or
    matches are reached; ``solo``: one ``--solo-seats`` tournament alone."""
    seats, at_once = (args.solo_seats, 1) if solo else (args.seats, args.tournaments)
    played: list[Tournament] = []

    async def launch() -> asyncio.Task[None]:
        tournament = Tournament(await starter.opened_id())
        starter.open(seats)  # the next lobby, opened while this one plays
        connected = asyncio.Event()
        port = ports[len(played) % len(ports)]
        watcher = asyncio.create_task(watch(port, tournament, connected))
        await asyncio.wait_for(connected.wait(), timeout=30)
        played.append(tournament)
        starter.start(tournament.id)
        return watcher

    starter.open(seats, at_once)
    counted = await in_thread(database_counters)
    backends = await in_thread(database_cpu)
    connections = 0
    before, began = cpu_split(stack), time.time()
    playing = {await launch() for _ in range(at_once)}
    while playing:
        done, playing = await asyncio.wait(
            playing, timeout=args.timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if not done:
            raise TimeoutError(f"no tournament finished within {args.timeout:.0f} s")
        for watcher in done:
            watcher.result()
        ids = [t.id for t in played]
        connections = max(connections, await in_thread(database_connections))
        steady = time.time() - began < args.spell_seconds
        if not solo and steady and await in_thread(finished_matches, ids) < (args.spell_matches):
            playing |= {await launch() for _ in done}
    after = cpu_split(stack)
    ended = await in_thread(database_counters)
    spent = await in_thread(database_cpu)
    cpu = [end - start for start, end in zip(before, after, strict=True)]
    cpu.append(sum(seconds - backends.get(pid, 0.0) for pid, seconds in spent.items()))
    database = {name: ended[name] - counted[name] for name in ended}
    # The lobbies opened ahead and never started are left in the benchmark's database.
    return Play(played, began, cpu, database, connections)


def figures(stretch: Play) -> dict[str, Any]:
    """A stretch's figures (from the database and the frames its spectators received)."""
    from tournaments.models import Tournament as Row
    from tournaments.models import TournamentEvent

    ids = [t.id for t in stretch.tournaments]
    elapsed = max(t.finished_at or 0.0 for t in stretch.tournaments) - stretch.began
    matches = finished_matches(ids)
    delays: list[float] = []
    complete = True
    for tournament in stretch.tournaments:
        # A spectator receives every seq: the events it may not see as ``hidden`` frames.
        logged = TournamentEvent.objects.filter(tournament_id=tournament.id)
        stored = dict(logged.values_list("seq", "visible_at"))
        seqs = [seq for seq, _, _ in tournament.frames]
        complete = complete and seqs == sorted(stored)
        delays += [
            (received - stored[seq].timestamp()) * 1000
            for seq, kind, received in tournament.frames
            if kind == "match_event"
        ]
    workers, daphnes, clients, database = stretch.cpu
    return {
        "tournaments": len(ids),
        "champions": Row.objects.filter(pk__in=ids, status="finished").count(),
        "seconds": elapsed,
        "matches": matches,
        "matches_per_s": matches / elapsed,
        "p50_ms": statistics.median(delays),
        "p99_ms": percentile(delays, 0.99),
        "max_ms": max(delays),
        "worker_cpu_ms_per_match": workers / matches * 1000,
        "daphne_cpu_s": daphnes,
        "client_cpu_s": clients,
        "db_cpu_ms_per_match": database / matches * 1000,
        "db_share": database / (workers + daphnes + database),
        "commits_per_match": stretch.database["xact_commit"] / matches,
        "rows_written_per_match": (
            stretch.database["tup_inserted"] + stretch.database["tup_updated"]
        )
        / matches,
        "db_bytes_per_match": stretch.database["bytes"] / matches,
        "db_connections": stretch.connections,
        "complete": complete,
    }


async def anchors(stack: Stack) -> dict[str, float]:
    """The machine's anchors now: the bare echo's p99 and the no-op task's median round trip."""
    (echo,) = stack.of_kind("echo")
    assert echo.port is not None
    echoes = await echo_round_trips(echo.port)
    tasks = await asyncio.to_thread(celery_round_trips)
    return {
        "echo_p99_ms": percentile(echoes, 0.99),
        "celery_ms": statistics.median(tasks),
        "python_ms": await asyncio.to_thread(python_cpu_ms),
    }


@contextmanager
def uncollected() -> Iterator[None]:
    """No garbage collection in this process (the clients') for the block, a full one after.

    A full collection of this process's heap (Django, the frames received) took 100-160 ms on
    2026-12-05: every frame arriving meanwhile waited in the socket, and the stall of one spell's
    ~330 frames set the stream's p99 (docs/performance.md). A client's pause is not the
    server's delay. The servers' own processes collect as they always do."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


async def spell(
    args: argparse.Namespace, stack: Stack, starter: Starter, number: int
) -> dict[str, Any]:
    """One spell: the anchors, the steady play, the lone tournament."""
    ports = [s.port for s in stack.of_kind("daphne-") if s.port is not None]
    with uncollected():
        found = await anchors(stack)
    with uncollected():
        stretch = await play(args, ports, stack, starter, solo=False)
    found.update(await in_thread(figures, stretch))
    if args.solo_seats:
        with uncollected():
            alone = await play(args, ports, stack, starter, solo=True)
        found["solo_s"] = (await in_thread(figures, alone))["seconds"]
    found.update(ratios(found))
    print_spell(number, found)
    return found


def ratios(found: dict[str, Any]) -> dict[str, float]:
    """The figures over the same spell's anchors: the stream's p99 in echoes, a match's worker
    CPU and the solo tournament in Celery round trips, matches per Celery round trip, a match's
    worker CPU in Python anchors."""
    echo, task = found["echo_p99_ms"], found["celery_ms"]
    made = {
        "p99_per_echo": found["p99_ms"] / echo,
        "cpu_per_task": found["worker_cpu_ms_per_match"] / task,
        "cpu_per_python": found["worker_cpu_ms_per_match"] / found["python_ms"],
        "matches_per_task": found["matches_per_s"] * task / 1000,
    }
    if "solo_s" in found:
        made["solo_per_task"] = found["solo_s"] * 1000 / task
    return made


def print_spell(number: int, found: dict[str, Any]) -> None:
    solo = f", solo {found['solo_s']:.2f} s" if "solo_s" in found else ""
    print(
        f"spell {number}: {found['matches']} matches in {found['seconds']:.1f} s = "
        f"{found['matches_per_s']:.1f}/s, p50 {found['p50_ms']:.0f} ms p99 "
        f"{found['p99_ms']:.0f} ms, worker CPU {found['worker_cpu_ms_per_match']:.1f} ms/match"
        f"{solo}; echo p99 {found['echo_p99_ms']:.1f} ms, Celery round trip "
        f"{found['celery_ms']:.1f} ms, Python {found['python_ms']:.0f} ms",
        flush=True,
    )


SUMMARY = (
    ("matches_per_s", "matches per second", "{:.1f}"),
    ("p50_ms", "stored -> received p50 (ms)", "{:.0f}"),
    ("p99_ms", "stored -> received p99 (ms)", "{:.0f}"),
    ("worker_cpu_ms_per_match", "worker CPU per match (ms)", "{:.1f}"),
    ("solo_s", "lone tournament (s)", "{:.2f}"),
    ("daphne_cpu_s", "Daphne CPU (s)", "{:.1f}"),
    ("db_cpu_ms_per_match", "PostgreSQL CPU per match (ms)", "{:.1f}"),
    ("db_share", "PostgreSQL's share of server CPU", "{:.2f}"),
    ("commits_per_match", "DB transactions per match", "{:.1f}"),
    ("rows_written_per_match", "DB rows written per match", "{:.0f}"),
    ("db_bytes_per_match", "DB bytes per match", "{:.0f}"),
    ("db_connections", "DB connections, most", "{:.0f}"),
    ("echo_p99_ms", "anchor: bare echo p99 (ms)", "{:.1f}"),
    ("celery_ms", "anchor: Celery round trip (ms)", "{:.1f}"),
    ("python_ms", "anchor: Python workload CPU (ms)", "{:.0f}"),
    ("p99_per_echo", "p99 / echo p99", "{:.1f}"),
    ("cpu_per_task", "CPU per match / Celery trip", "{:.2f}"),
    ("cpu_per_python", "CPU per match / Python workload", "{:.3f}"),
    ("matches_per_task", "matches per Celery trip", "{:.2f}"),
    ("solo_per_task", "lone tournament / Celery trip", "{:.0f}"),
)


def summary(spells: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Each figure's median and spread over the spells."""
    return {
        key: {
            "median": statistics.median(s[key] for s in spells),
            "min": min(s[key] for s in spells),
            "max": max(s[key] for s in spells),
        }
        for key, _, _ in SUMMARY
        if key in spells[0]
    }


def report(args: argparse.Namespace, spells: list[dict[str, Any]]) -> None:
    print(
        f"{args.tournaments} tournaments x {args.seats} bot seats at once, {args.workers} "
        f"worker(s) x {args.concurrency} processes (nice {args.worker_nice}), {args.daphnes} "
        f"Daphne(s), {os.cpu_count()} CPU cores; {len(spells)} spell(s), median [min-max]"
    )
    overall = summary(spells)
    for key, label, shape in SUMMARY:
        if key in overall:
            row = overall[key]
            spread = "-".join(shape.format(row[end]) for end in ("min", "max"))
            print(f"{label:32} {shape.format(row['median']):>8}  [{spread}]")
    champions = sum(s["champions"] for s in spells)
    played = sum(s["tournaments"] for s in spells)
    print(f"finished with a champion:   {champions}/{played} (lone tournaments aside)")
    complete = all(s["complete"] for s in spells)
    print(f"every event once, in order, no gap, on every socket: {'yes' if complete else 'NO'}")
    if args.json:
        print(json.dumps({"spells": spells, "summary": overall}, indent=2))


def main() -> None:
    args = parse_args()
    env = bench_environment(args)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    prepare_database(env)
    import django

    django.setup()
    purge_queue()
    logs = Path(tempfile.mkdtemp(prefix="bench-stack-"))
    print(f"logs of the workers and Daphne: {logs}")
    with interrupts_unwind(), running(bench_stack(args, env, logs)) as stack:
        starter = Starter(args.seed)
        try:
            spells = [asyncio.run(spell(args, stack, starter, n + 1)) for n in range(args.repeat)]
        finally:
            starter.close()
        report(args, spells)


if __name__ == "__main__":
    main()
