"""The bot ladder: seeded 4-seat bot tournaments of mixed levels, and how often each level wins.

``python -m tournaments.ladder --tournaments N [--json] [--seed S] [--configured-db]`` plays ``N``
tournaments in this process. An organizer opens each and seats four bots. They go through the same
services as the API. So the bots decide exactly as live bots do. The database is a throwaway SQLite
one. With ``--configured-db`` it is ``DATABASE_URL``'s.

Tournament ``i`` seats ``rookie``, ``steady``, ``champion`` and one more level (cycling). The four
rotate over the seat numbers, so every level plays every seat.

It prints, for each level:

- ``win_rate``: its share of the seats it held that won;
- ``ci95``: that rate's 95 % Wilson interval;
- ``decision_ms``, ``phase_ms``: the CPU milliseconds of one bot decision and of a whole Deck
  Phase (p50 and p99);
- ``question_ms``: the CPU milliseconds of one card question a champion answered by simulation.
  The other levels answer at once, without simulating.

To use more cores, run disjoint ranges in parallel:
``--start K --tournaments N --raw --json > part``. Then combine them:
``--merge part1 part2 …`` gives the same figures as one run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from statistics import quantiles
from typing import TYPE_CHECKING, NotRequired, TypedDict

if TYPE_CHECKING:
    from tournaments.selectors.viewers import Organizer

LEVELS = ("rookie", "steady", "champion")
SEATS = 4
Z95 = 1.959963984540054


def lineup(index: int) -> list[str]:
    """The levels of tournament ``index`` by seat number.

    Three levels and a cycling fourth, rotated by the index.
    """
    levels = [*LEVELS, LEVELS[index % len(LEVELS)]]
    shift = (index // len(LEVELS)) % SEATS
    return levels[shift:] + levels[:shift]


class Ladder(TypedDict):
    """A ladder's figures per bot level.

    ``samples`` holds the raw timings, kept for ``merge``.
    """

    tournaments: int
    seats: dict[str, int]
    wins: dict[str, int]
    win_rate: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    decision_ms: dict[str, dict[str, float]]
    phase_ms: dict[str, dict[str, float]]
    question_ms: dict[str, dict[str, float]]
    samples: NotRequired[dict[str, list[float]]]


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denominator
    return (round(centre - half, 4), round(centre + half, 4))


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    if not samples:
        return {"p50": 0.0, "p99": 0.0}
    if len(samples) == 1:
        return {"p50": round(samples[0], 2), "p99": round(samples[0], 2)}
    cuts = quantiles(samples, n=100, method="inclusive")
    return {"p50": round(cuts[49], 2), "p99": round(cuts[98], 2)}


def play_one(index: int, seed: int, organizer: Organizer) -> tuple[list[str], list[int]]:
    """Play tournament ``index`` to its end. Return its lineup and its winners' seat numbers."""
    from tournaments.models import Tournament
    from tournaments.services.lobby import seat_add_bots, tournament_organize
    from tournaments.services.start import tournament_start

    levels = lineup(index)
    tournament = tournament_organize(organizer=organizer, seat_count=SEATS, seed=seed + index)
    for level in levels:
        seat_add_bots(tournament_id=tournament.pk, seat=organizer, count=1, level=level)
    tournament_start(tournament_id=tournament.pk, seat=organizer)
    tournament.refresh_from_db()
    if tournament.status != "finished":
        raise RuntimeError(f"Ladder tournament {index} stopped in {tournament.status}")
    return levels, list(Tournament.objects.get(pk=tournament.pk).winners)


def run(tournaments: int, seed: int = 1, start: int = 0) -> Ladder:
    """Play tournaments ``start`` to ``start + tournaments - 1``.

    They use the configured database. Django must be set up; tasks run eagerly. Return the figures
    with their raw samples.
    """
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tournaments.rules.bots import foresight
    from tournaments.selectors.viewers import Organizer
    from tournaments.services import desk

    settings.TASK_RUNNER, settings.MATCH_EVENT_PACE_SECONDS = "celery", 0
    settings.TRUST_HOST_SEED = True
    user, _ = get_user_model().objects.get_or_create(username="ladder")
    organizer = Organizer(user_id=user.pk, name="ladder")
    times: dict[tuple[str, str], list[float]] = defaultdict(list)

    def observe(level: str, what: str, seconds: float) -> None:
        times[(level, what)].append(seconds * 1000)

    def question(seconds: float) -> None:
        observe("champion", "question", seconds)

    seats, wins = dict.fromkeys(LEVELS, 0), dict.fromkeys(LEVELS, 0)
    desk.DECISION_OBSERVERS.append(observe)
    foresight.OBSERVERS.append(question)
    try:
        for index in range(start, start + tournaments):
            levels, winners = play_one(index, seed, organizer)
            for number, level in enumerate(levels):
                seats[level] += 1
                wins[level] += number in winners
    finally:
        desk.DECISION_OBSERVERS.remove(observe)
        foresight.OBSERVERS.remove(question)
    samples = {f"{level}/{what}": values for (level, what), values in times.items()}
    return figures(tournaments, seats, wins, samples)


def figures(
    tournaments: int, seats: dict[str, int], wins: dict[str, int], samples: dict[str, list[float]]
) -> Ladder:
    def ms(level: str, what: str) -> dict[str, float]:
        return percentiles(samples.get(f"{level}/{what}", []))

    return {
        "tournaments": tournaments,
        "seats": seats,
        "wins": wins,
        "win_rate": {lv: round(wins[lv] / max(seats[lv], 1), 4) for lv in LEVELS},
        "ci95": {lv: wilson(wins[lv], seats[lv]) for lv in LEVELS},
        "decision_ms": {lv: ms(lv, "decision") for lv in LEVELS},
        "phase_ms": {lv: ms(lv, "phase") for lv in LEVELS},
        "question_ms": {"champion": ms("champion", "question")},
        "samples": samples,
    }


def merge(parts: Sequence[Ladder]) -> Ladder:
    """One ladder's figures from runs of disjoint ranges (``--start``, ``--raw``)."""
    seats, wins = dict.fromkeys(LEVELS, 0), dict.fromkeys(LEVELS, 0)
    samples: dict[str, list[float]] = defaultdict(list)
    for part in parts:
        for level in LEVELS:
            seats[level] += part["seats"][level]
            wins[level] += part["wins"][level]
        for name, values in part["samples"].items():
            samples[name] += values
    return figures(sum(p["tournaments"] for p in parts), seats, wins, dict(samples))


def _set_up_django(configured_db: bool) -> None:
    if not configured_db:  # a throwaway SQLite database and in-process tasks
        os.environ["DATABASE_URL"] = ""
        os.environ["REDIS_URL"] = ""
        memory = "/dev/shm" if os.path.isdir("/dev/shm") else None  # no disk syncs when it can
        folder = tempfile.mkdtemp(prefix="ladder-", dir=memory)
        os.environ["SQLITE_PATH"] = os.path.join(folder, "db.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from cards.catalogue import catalogue_load

    call_command("migrate", verbosity=0)
    catalogue_load()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    parser.add_argument("--configured-db", action="store_true", help="Use DATABASE_URL's DB.")
    parser.add_argument("--start", type=int, default=0, help="The first tournament's index.")
    parser.add_argument("--raw", action="store_true", help="Keep the timing samples (--merge).")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="Merge --raw --json outputs.")
    args = parser.parse_args(argv)
    if args.merge:
        found = merge([json.loads(Path(name).read_text(encoding="utf-8")) for name in args.merge])
    else:
        _set_up_django(args.configured_db)
        found = run(args.tournaments, args.seed, args.start)
    if not args.raw:
        found.pop("samples")
    _show(found, as_json=args.json)
    return 0


def _show(found: Ladder, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(found))
        return
    for level in LEVELS:
        low, high = found["ci95"][level]
        print(
            f"{level:9} win rate {found['win_rate'][level]:.3f} [{low:.3f}, {high:.3f}]"
            f"  decision p50/p99 {found['decision_ms'][level]} ms"
            f"  phase {found['phase_ms'][level]} ms"
        )
    print(f"champion question p50/p99 {found['question_ms']['champion']} ms")


if __name__ == "__main__":
    sys.exit(main())
