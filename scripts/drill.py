#!/usr/bin/env python
"""Fault drills: bot tournaments on a private full stack, one fault injected per batch.

    .venv/bin/python scripts/drill.py [--faults redis-restart,postgres-down] [--tournaments 6]
                                      [--seats 4] [--short] [--json] [--rows FILE]

It starts, under a temporary folder of its own, a PostgreSQL cluster (``initdb``/``pg_ctl``, as
the ``postgres`` user when run as root) and a ``redis-server`` on free ports, migrates the
database and loads the catalogue, then two Celery workers, Celery beat and two Daphnes (the
shape of docker-compose.yml with ``--scale worker=2 --scale ws=2``). The machine's own
PostgreSQL and Redis are never touched. For each fault it opens a batch of bot tournaments
over REST as an organizer, follows each one's stream as a spectator who resumes by ``after=``
after every drop, reads each tournament's view and ``/api/v1/health/`` every second, injects
the fault ``--fault-at`` seconds after the start, and waits for every tournament to finish.
Then it prints one row per fault:

- **in flight**: the tournaments not finished when the fault was injected;
- **finished** (in the database) and **verified** (``GET /tournaments/{id}/verify/`` says ok);
- **lost/dup**: stored events a follower never received / received twice (the follower's seqs
  against the stored log);
- **5xx**: answers 500-599 to the tournament reads (``/health/`` is counted apart: its codes),
  but for coded refusals (a 503 ``database_unavailable`` while PostgreSQL is down: the promised
  answer), shown apart as ``+N coded 503``;
- **recovery**: from the dependency being back (the server listening again; for a killed worker
  or Daphne, the kill: the other one never went away) to the next event *stored* for every
  tournament in flight (``stall``): the longest stall.
- **died**: services that exited on their own: the drill starts them again at once, as compose's
  ``restart: unless-stopped`` would (reported, not counted against the target).

Each row is appended to ``--rows`` (default ``rows.jsonl`` in its folder) as a JSON line the
moment it is measured, so a drill that fails later keeps what it measured. Services are waited
for until ready (a port answering, a log line), with a 600 s safety net, never a fixed budget.

It stops everything it started (by PID) however it ends, Ctrl-C included, and exits 1 when a
row misses its target: all finished and verified, nothing lost or duplicated, no 5xx, play
resumed within 10 s (30 s after a killed worker).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from drill_clients import Api, Follower, Reader, open_tournament
from private_services import PrivatePostgres, PrivateRedis
from stack import (
    Stack,
    Supervisor,
    free_port,
    interrupts_unwind,
    manage,
    prepare_database,
    running,
)
from stack import stack_environment as environment

FAULTS = ("worker-kill", "worker-down", "redis-restart", "redis-down", "postgres-restart",
          "postgres-down", "daphne-kill")  # fmt: skip
SHORT_FAULTS = ("redis-restart", "postgres-restart")
TARGET_SECONDS = {"worker-kill": 30.0, "worker-down": 30.0}
DEFAULT_TARGET_SECONDS = 10.0
FINISH_GRACE_SECONDS = 20.0  # once finished in the database, for the followers to see the end


@dataclass
class Faults:
    """Each fault of the drill: injects it and returns when the dependency is back."""

    postgres: PrivatePostgres
    redis: PrivateRedis
    stack: Stack
    worker_down_seconds: float = 60
    redis_down_seconds: float = 20
    postgres_down_seconds: float = 15

    def table(self) -> dict[str, Callable[[], float]]:
        return {
            "worker-kill": lambda: self.worker(0),
            "worker-down": lambda: self.worker(self.worker_down_seconds),
            "redis-restart": lambda: self.redis_off(0),
            "redis-down": lambda: self.redis_off(self.redis_down_seconds),
            "postgres-restart": lambda: self.postgres_off(0),
            "postgres-down": lambda: self.postgres_off(self.postgres_down_seconds),
            "daphne-kill": self.daphne,
        }

    def worker(self, down: float) -> float:
        """SIGKILL the first worker (its pool with it), start it again after ``down``. The
        recovery counts from the kill: the other worker never went away, and the dead one's
        work must move to it (within 30 s), not wait for its return."""
        with self.stack.holding("worker-0"):
            self.stack.kill("worker-0")
            killed = time.time()
            time.sleep(down)
            self.stack.start("worker-0")
        return killed

    def redis_off(self, down: float) -> float:
        self.redis.stop()
        time.sleep(down)
        self.redis.start()
        return time.time()

    def postgres_off(self, down: float) -> float:
        self.postgres.stop("fast")
        time.sleep(down)
        self.postgres.start()
        return time.time()

    def daphne(self) -> float:
        """SIGKILL the second Daphne: its sockets move to the first. Then start it again."""
        with self.stack.holding("daphne-1"):
            self.stack.kill("daphne-1")
            back = time.time()  # the other Daphne never went away
            self.stack.start("daphne-1")
        return back


@dataclass
class Row:
    fault: str
    tournaments: int
    in_flight: int
    finished: int
    verified: int
    lost: int
    duplicated: int
    fives: int
    health: str
    lasted: float | None
    recovery: float | None
    target: float
    died: list[str] = field(default_factory=list)
    coded: int = 0  # coded 5xx refusals (503 database_unavailable): promised, not failures

    def met(self) -> bool:
        whole = self.finished == self.verified == self.tournaments
        clean = self.lost == self.duplicated == self.fives == 0
        return whole and clean and self.recovery is not None and self.recovery <= self.target


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Fault drills on a private full stack.")
    parser.add_argument("--faults", help=f"comma-separated; default all, --short: {SHORT_FAULTS}")
    parser.add_argument("--tournaments", type=int, help="per fault (default 6, --short 4)")
    parser.add_argument("--seats", type=int, default=4, help="bots per tournament (default 4)")
    parser.add_argument("--short", action="store_true", help="the suite's drill: 2 faults x 4")
    parser.add_argument("--fault-at", type=float, default=8, help="seconds after the start")
    parser.add_argument("--pace-ms", type=int, help="MATCH_EVENT_PACE_MS (default 100, --short 30)")
    parser.add_argument("--timeout", type=float, default=240, help="per batch, after the fault")
    parser.add_argument("--json", action="store_true", help="the rows as JSON after the table")
    parser.add_argument(
        "--rows", type=Path, help="each row appended here as a JSON line once measured (default: "
        "rows.jsonl in the drill's folder): a drill that fails later keeps the rows it measured"
    )  # fmt: skip
    args = parser.parse_args()
    args.faults = (args.faults or ",".join(SHORT_FAULTS if args.short else FAULTS)).split(",")
    args.tournaments = args.tournaments or (4 if args.short else 6)
    # --short: tournaments of ~20 s instead of ~60 s, still all in flight at --fault-at (8 s).
    args.pace_ms = args.pace_ms or (30 if args.short else 100)
    unknown = set(args.faults) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults {sorted(unknown)}; known: {', '.join(FAULTS)}")
    return args


def drill_stack(env: dict[str, str], logs: Path) -> Stack:
    """Two workers, Celery beat and two Daphnes: docker-compose.yml with ``--scale worker=2
    --scale ws=2``."""
    stack = Stack(env, logs)
    stack.add_worker("worker-0")
    stack.add_worker("worker-1")
    stack.add_beat()
    stack.add_daphne("daphne-0", free_port())
    stack.add_daphne("daphne-1", free_port())
    return stack


class Batch:
    """One fault's tournaments, their followers and readers, and what they saw."""

    def __init__(self, api: Api, database: str, ports: list[int]) -> None:
        self.api, self.database, self.ports = api, database, ports
        self.ids: list[int] = []
        self.followers: list[Follower] = []
        self.readers: list[Reader] = []
        self.health = Reader(api, "health/")
        self.began = 0.0

    async def run(self, args: argparse.Namespace, fault: str, inject: Callable[[], float]) -> Row:
        stop, count = asyncio.Event(), args.tournaments
        opening = (asyncio.to_thread(open_tournament, self.api, args.seats) for _ in range(count))
        self.ids = list(await asyncio.gather(*opening))
        began = self.began = time.time()
        self.followers = [Follower(t, self.ports) for t in self.ids]
        self.readers = [Reader(self.api, f"tournaments/{t}/") for t in self.ids]
        tasks = [asyncio.create_task(follower.follow()) for follower in self.followers]
        reads = [asyncio.create_task(r.read(stop)) for r in [*self.readers, self.health]]
        await asyncio.sleep(max(0.0, began + args.fault_at - time.time()))
        in_flight = sum(not f.finished for f in self.followers)
        back = await asyncio.to_thread(inject)
        await self._until_finished(back + args.timeout)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *reads, return_exceptions=True)
        return await asyncio.to_thread(self._row, fault, in_flight, back)

    async def _until_finished(self, deadline: float) -> None:
        """Every tournament finished in the database and seen to its end by its follower (or
        given up: the deadline, or a grace after the database said finished)."""
        finished_at: float | None = None
        while time.time() < deadline:
            if all(f.finished for f in self.followers):
                return
            if finished_at is None and await asyncio.to_thread(self._all_finished):
                finished_at = time.time()
            if finished_at is not None and time.time() > finished_at + FINISH_GRACE_SECONDS:
                return
            await asyncio.sleep(0.5)

    def _all_finished(self) -> bool:
        try:
            return len(self._finished_ids()) == len(self.ids)
        except psycopg.OperationalError:  # the database is down: not yet
            return False

    def _finished_ids(self) -> list[int]:
        with psycopg.connect(self.database, connect_timeout=3) as conn:
            rows = conn.execute(
                "SELECT id FROM tournaments_tournament WHERE id = ANY(%s) AND status = 'finished'",
                [self.ids],
            ).fetchall()
        return [row[0] for row in rows]

    def _stored(self, tournament: int) -> list[int]:
        with psycopg.connect(self.database) as conn:
            rows = conn.execute(
                "SELECT seq FROM tournaments_tournamentevent WHERE tournament_id = %s ORDER BY seq",
                [tournament],
            ).fetchall()
        return [row[0] for row in rows]

    def _row(self, fault: str, in_flight: int, back: float) -> Row:
        finished = self._finished_ids()
        verified = sum(self._verified(t) for t in finished)
        lost = duplicated = 0
        for follower in self.followers:
            seqs = [seq for seq, _, _ in follower.frames]
            lost += len(set(self._stored(follower.tournament)) - set(seqs))
            duplicated += len(seqs) - len(set(seqs))
        return Row(
            fault=fault,
            tournaments=len(self.ids),
            in_flight=in_flight,
            finished=len(finished),
            verified=verified,
            lost=lost,
            duplicated=duplicated,
            fives=sum(r.fives() for r in self.readers),
            coded=sum(r.coded() for r in self.readers),
            health=self._health(),
            lasted=self._lasted(),
            recovery=self._recovery(back),
            target=TARGET_SECONDS.get(fault, DEFAULT_TARGET_SECONDS),
        )

    def _health(self) -> str:
        """The codes ``/health/`` answered, and the parts it named failing (with counts)."""
        codes = ",".join(sorted(self.health.statuses))
        parts = " ".join(f"{name}x{count}" for name, count in sorted(self.health.failing.items()))
        return f"{codes} ({parts})" if parts else codes

    def _lasted(self) -> float | None:
        """Seconds from the start to the last ``tournament_finished`` (None: not all were seen)."""
        ends = [t for f in self.followers for _, k, t in f.frames if k == "tournament_finished"]
        return max(ends) - self.began if len(ends) == len(self.followers) else None

    def _verified(self, tournament: int) -> bool:
        code, body = self.api.status(f"tournaments/{tournament}/verify/")
        return code == 200 and bool(body["ok"])

    def _recovery(self, back: float) -> float | None:
        """The longest stall, over the tournaments unfinished at ``back``, before the first
        event committed after it (None: one never moved again); see ``stall``."""
        waits = [stall(self._log(tournament), back) for tournament in self.ids]
        if any(wait is None for wait in waits):
            return None
        return max((wait for wait in waits if wait is not None), default=0.0)

    def _log(self, tournament: int) -> list[tuple[str, float, float]]:
        """The tournament's stored events: kind, visible at, committed at (the private cluster
        runs with ``track_commit_timestamp``)."""
        with psycopg.connect(self.database) as conn:
            rows = conn.execute(
                "SELECT kind, extract(epoch FROM visible_at)::float8,"
                " extract(epoch FROM pg_xact_commit_timestamp(xmin))::float8"
                " FROM tournaments_tournamentevent WHERE tournament_id = %s ORDER BY seq",
                [tournament],
            ).fetchall()
        return [(kind, visible, committed) for kind, visible, committed in rows]


def stall(log: list[tuple[str, float, float]], back: float) -> float | None:
    """How long a tournament waited, once the dependency was ``back``, for its next event.

    Progress is a new row in the log (its commit time), not a frame on a stream: paced match
    events keep streaming from rows stored before the fault with no worker at all. The wait
    starts at ``back``, or later if the tournament still had stored events to show then (the
    last one visible at ``shown``): it needed nothing new before. 0 for a tournament that had
    finished before ``back``; None for one that never moved again.
    """
    before = [(kind, visible) for kind, visible, committed in log if committed < back]
    if any(kind == "tournament_finished" for kind, _ in before):
        return 0.0
    after = [committed for _, _, committed in log if committed >= back]
    if not after:
        return None
    shown = max((visible for _, visible in before), default=back)
    return max(0.0, min(after) - max(back, shown))


HEAD = ("fault", "tournaments", "in flight", "finished", "verified", "lost/dup", "5xx",
        "health (failing parts)", "lasted", "recovery", "died", "target met")  # fmt: skip


def cells(row: Row) -> tuple[str, ...]:
    """One row of the table, as ``HEAD`` names its columns."""
    return (
        row.fault,
        *(str(n) for n in (row.tournaments, row.in_flight, row.finished, row.verified)),
        f"{row.lost}/{row.duplicated}",
        str(row.fives) + (f" (+{row.coded} coded 503)" if row.coded else ""),
        row.health,
        "-" if row.lasted is None else f"{row.lasted:.0f} s",
        "never" if row.recovery is None else f"{row.recovery:.1f} s",
        ",".join(row.died) or "-",
        "yes" if row.met() else "NO",
    )


def keep(row: Row, path: Path) -> None:
    """Append ``row`` to ``path`` as one JSON line, flushed, and show it as a table line."""
    with path.open("a") as rows:
        rows.write(json.dumps(asdict(row) | {"met": row.met()}) + "\n")
    print(f"{row.fault}: " + " | ".join(cells(row)) + f" (kept in {path})", file=sys.stderr)


def print_table(rows: list[Row]) -> None:
    for line in [HEAD, tuple("---" for _ in HEAD), *(cells(row) for row in rows)]:
        print("| " + " | ".join(line) + " |")


def drill(args: argparse.Namespace, folder: Path) -> list[Row]:
    postgres, redis = PrivatePostgres(folder / "postgres"), PrivateRedis(folder / "redis")
    try:
        postgres.create()
        postgres.start()
        redis.start()
        env = environment(postgres.url, redis.url, MATCH_EVENT_PACE_MS=str(args.pace_ms))
        prepare_database(env)
        token = manage(env, "create_organizer", "drill").strip()
        with running(drill_stack(env, folder / "logs")) as stack:
            ports = [service.port for service in stack.of_kind("daphne-") if service.port]
            faults = Faults(postgres, redis, stack).table()
            rows = []
            for fault in args.faults:
                print(f"{fault}: {args.tournaments} tournaments ...", file=sys.stderr)
                batch = Batch(Api(ports, token), postgres.url, ports)
                with Supervisor(stack) as supervisor:
                    row = asyncio.run(batch.run(args, fault, faults[fault]))
                row.died = supervisor.restarted
                rows.append(row)
                keep(row, args.rows or folder / "rows.jsonl")
            return rows
    finally:
        redis.stop()
        postgres.stop("immediate")
        postgres.kill()


def main() -> None:
    args = parse_args()
    folder = Path(tempfile.mkdtemp(prefix="drill-"))
    folder.chmod(0o755)  # PostgreSQL runs as its own user, its data in a folder below this one
    (folder / "logs").mkdir()
    print(f"the drill's services and logs: {folder}", file=sys.stderr)
    with interrupts_unwind():
        try:
            rows = drill(args, folder)
        finally:
            shutil.rmtree(folder / "postgres" / "data", ignore_errors=True)
    print_table(rows)
    if args.json:
        print(json.dumps([asdict(row) | {"met": row.met()} for row in rows]))
    sys.exit(0 if all(row.met() for row in rows) else 1)


if __name__ == "__main__":
    main()
