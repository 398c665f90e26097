#!/usr/bin/env python
"""Benchmark of the full stack: many bot-only tournaments played at once.

A measurement harness, not a test and not a way to play: an organizer (no seat of its own)
creates bot-only tournaments through the services, so that no client has to drive anyone and the
Celery workers do everything — every bot's Deck Phase, every match, every round's close. It starts
its own processes on the full stack:

- ``--workers`` Celery workers (``celery -A config worker -P prefork -c <concurrency>``),
- ``--daphnes`` Daphne processes, each on a free port, serving the live stream
  ``/ws/tournaments/{id}/``; the spectators are spread over them in turn, as a proxy in front of
  them would spread its connections (compose runs one port for the whole stack),

against PostgreSQL (a database of its own, ``<DATABASE_URL's name>_bench``, created, migrated and
loaded with the catalogue when missing) and Redis (``REDIS_URL`` with the database number
``--redis-db``, so the benchmark's queue is its own), with ``MATCH_EVENT_PACE_MS=0`` and DEBUG off.
One WebSocket spectator per tournament is connected to Daphne before the start; the tournaments
are started from a process of their own (as the API's processes would start them), so that the
starts' CPU never holds up the clients and delays the arrival times they record. It prints:

- tournaments per minute and matches per second, from the first start to the last
  ``tournament_finished`` frame received;
- the delay between a match event being stored (``TournamentEvent.visible_at``, stamped by the
  worker in the transaction that records the match: the delay includes that transaction's commit,
  the channel-layer nudge, Daphne reading the log and the socket) and the WebSocket client
  receiving it: p50, p99 and max over every ``match_event`` frame;
- whether each client received exactly the tournament's public events, in order, none twice.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python scripts/bench_stack.py

Everything runs on this one machine, so the workers, Daphne, PostgreSQL, Redis and the clients
share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

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


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Bot-only tournaments on the full stack.")
    parser.add_argument("--tournaments", type=int, default=8, help="played at once (default 8)")
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
    parser.add_argument("--redis-db", type=int, default=14, help="Redis database number")
    parser.add_argument("--timeout", type=float, default=600, help="give up after (seconds)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first tournament")
    return parser.parse_args()


def bench_environment(args: argparse.Namespace) -> dict[str, str]:
    """The environment of every process of the benchmark: its own database and Redis db."""
    database, redis = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not database or not redis:
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: the benchmark is of the full stack.")
    db_url = urlsplit(database)
    name = db_url.path.lstrip("/") + "_bench"
    redis_url = urlsplit(redis)
    return stack_environment(
        urlunsplit(db_url._replace(path=f"/{name}")),
        urlunsplit(redis_url._replace(path=f"/{args.redis_db}")),
        SECRET_KEY="bench-stack-only",
    )


def bench_stack(args: argparse.Namespace, env: dict[str, str], logs: Path) -> Stack:
    """The workers (at ``--worker-nice``) and the Daphnes, each Daphne on a free port."""
    stack = Stack(env, logs)
    for number in range(args.workers):
        stack.add_worker(f"bench-{number}", concurrency=args.concurrency, nice=args.worker_nice)
    for number in range(args.daphnes):
        stack.add_daphne(f"daphne-{number}", free_port())
    return stack


def cpu_split(args: argparse.Namespace, stack: Stack) -> tuple[float, float, float]:
    """CPU seconds so far of the workers, the Daphnes and this process (the clients)."""
    workers = sum(cpu_seconds(s.pid) for s in stack.of_kind("bench-"))
    daphnes = sum(cpu_seconds(s.pid) for s in stack.of_kind("daphne-"))
    return workers, daphnes, time.process_time()


def purge_queue() -> None:
    """Drop tasks a previous, interrupted run may have left in the benchmark's queue."""
    from config.celery import app

    app.control.purge()


@dataclass
class Tournament:
    id: int
    organizer_token: str
    frames: list[tuple[int, str, float]] = field(default_factory=list)  # (seq, kind, received)
    finished_at: float | None = None


def create_tournaments(args: argparse.Namespace) -> list[Tournament]:
    """Lobbies full of bots, opened by an organizer of the benchmark's own."""
    from tournaments.selectors.viewers import organizer_of_token
    from tournaments.services.lobby import seat_add_bots, tournament_organize
    from tournaments.services.organizers import organizer_create

    token = organizer_create(username="bench-organizer")
    organizer = organizer_of_token(token)
    made = []
    for number in range(args.tournaments):
        opened = tournament_organize(
            organizer=organizer, seat_count=args.seats, seed=args.seed + number
        )
        seat_add_bots(tournament_id=opened.pk, seat=organizer, count=args.seats)
        made.append(Tournament(opened.pk, token))
    return made


def start_tournaments(ids: list[int], token: str, ready: Any, go: Any) -> None:
    """Start the tournaments as their organizer, in a process of its own (``run``): once ready,
    wait for ``go``."""
    import django

    django.setup()
    from tournaments.selectors.viewers import organizer_of_token
    from tournaments.services.start import tournament_start

    organizer = organizer_of_token(token)
    ready.set()
    go.wait()
    for tournament_id in ids:
        tournament_start(tournament_id=tournament_id, seat=organizer)


def starter(tournaments: list[Tournament]) -> tuple[Any, Any]:
    """A process that will start the tournaments, as the API's processes would: the starts'
    CPU must not hold up this process's clients and delay the arrival times they record."""
    context = multiprocessing.get_context("spawn")
    ready, go = context.Event(), context.Event()
    ids, token = [t.id for t in tournaments], tournaments[0].organizer_token
    process = context.Process(target=start_tournaments, args=(ids, token, ready, go))
    process.start()
    if not ready.wait(timeout=60):
        sys.exit("the process starting the tournaments did not get ready within 60 s")
    return process, go


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


async def run(
    args: argparse.Namespace, ports: list[int], tournaments: list[Tournament], stack: Stack
) -> tuple[float, list[float]]:
    """Connect the spectators (spread over the Daphnes), start every tournament, wait for the
    last champion. Returns the start and the CPU seconds each kind of process spent meanwhile."""
    ready = [asyncio.Event() for _ in tournaments]
    watchers = [
        asyncio.create_task(watch(ports[number % len(ports)], tournament, event))
        for number, (tournament, event) in enumerate(zip(tournaments, ready, strict=True))
    ]
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready)), timeout=30)
    process, go = await asyncio.to_thread(starter, tournaments)
    before, began = cpu_split(args, stack), time.time()
    go.set()
    await asyncio.wait_for(asyncio.gather(*watchers), timeout=args.timeout)
    await asyncio.to_thread(process.join)
    after = cpu_split(args, stack)
    return began, [end - start for start, end in zip(before, after, strict=True)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(
    args: argparse.Namespace, tournaments: list[Tournament], began: float, cpu: list[float]
) -> None:
    from matches.models import Match, MatchStatus
    from tournaments.models import Tournament as Row
    from tournaments.models import TournamentEvent

    ids = [t.id for t in tournaments]
    ended = max(t.finished_at or 0.0 for t in tournaments)
    elapsed = ended - began
    matches = Match.objects.filter(tournament_id__in=ids, status=MatchStatus.FINISHED).count()
    delays: list[float] = []
    complete = True
    for tournament in tournaments:
        # A spectator receives every seq: the events it may not see as ``hidden`` frames.
        logged = TournamentEvent.objects.filter(tournament_id=tournament.id)
        stored = dict(logged.values_list("seq", "visible_at"))
        seqs = [seq for seq, _, _ in tournament.frames]
        complete = complete and seqs == sorted(stored)
        delays += [
            received - stored[seq].timestamp()
            for seq, kind, received in tournament.frames
            if kind == "match_event"
        ]
    champions = Row.objects.filter(pk__in=ids, status="finished").count()
    milliseconds = [delay * 1000 for delay in delays]
    print(
        f"{args.tournaments} tournaments x {args.seats} bot seats, {args.workers} worker(s) x "
        f"{args.concurrency} processes (nice {args.worker_nice}), {args.daphnes} Daphne(s), "
        f"{os.cpu_count()} CPU cores"
    )
    print(f"finished with a champion:   {champions}/{len(ids)} in {elapsed:.1f} s")
    print(f"tournaments per minute:     {len(ids) / elapsed * 60:.1f}")
    print(f"matches per second:         {matches / elapsed:.1f}  ({matches} matches)")
    print(
        f"stored -> received delay:   p50 {statistics.median(milliseconds):.1f} ms, "
        f"p99 {percentile(milliseconds, 0.99):.1f} ms, max {max(milliseconds):.1f} ms "
        f"over {len(milliseconds)} match events"
    )
    workers, daphnes, clients = cpu
    print(
        f"CPU meanwhile:              workers {workers:.1f} s ({workers / matches * 1000:.0f} ms "
        f"per match), Daphne {daphnes:.1f} s, the clients {clients:.1f} s"
    )
    print(f"every event once, in order, no gap, on every socket: {'yes' if complete else 'NO'}")


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
        ports = [s.port for s in stack.of_kind("daphne-") if s.port is not None]
        tournaments = create_tournaments(args)
        began, cpu = asyncio.run(run(args, ports, tournaments, stack))
        report(args, tournaments, began, cpu)


if __name__ == "__main__":
    main()
