"""``python -m matches.engine.bench [--json] [-n N] [--seed S]``: matches per second on one core.

It gives four figures, for two kinds of setup. ``starter_*`` plays two base Starter decks.
``mixed_*`` plays two random round-7 decks of 14-18 cards. Those are drawn uniformly without
replacement from every A, B and C card (all copies) of both boxes. The rest of those cards form the
level piles. Both run with recording off (``*_fast``) and on (``*_recorded``). The default policy
answers every question.

Setups are built before the clock starts, and frozen out of the garbage collector's way. The figure
is matches / CPU seconds of this process spent in ``play_match``. Other processes on the machine do
not distort it. Each figure is the best of ``--repeat`` runs. The runs of the four figures take
turns. So a slow spell of a shared machine does not fall on one figure's runs only. And the
recorded/fast ratio compares runs made together.

``--compare R`` measures the pure-Python engine against the compiled one (``native``) in one run. It
makes ``R`` rounds. Each round makes one run (``--repeat``) of each engine, in a process of its own,
in turns. So a slow spell falls on both. It prints each engine's best figures and their ratios
(compiled / pure).

``--only K [--record]`` builds the ``-n`` mixed setups. It plays the first ``K`` after a warm-up. It
prints nothing. Run it under callgrind with ``K = n`` and with ``K = 0``, and subtract. That gives a
load-independent figure, instructions per match. (``scripts/engine_instructions`` does so.)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time

from matches.engine import native
from matches.engine.cards import load_catalogue
from matches.engine.match import play_match
from matches.engine.model import MatchSetup

STARTER = ("Newcomer", "Newcomer", "Newcomer", "Talent", "Dog", "Champion")
ALL_SETS = (
    "City",
    "Castle",
    "Film Studio",
    "Funfair",
    "Haunted House",
    "Outer Space",
    "Shipwreck",
    "Rainbow",
    "Secret Base",
    "Beach Club",
    "Mountain Top",
    "University",
    "Toy Store",
    "Fairytale Forest",
)


def starter_setups(n: int) -> list[MatchSetup]:
    """``n`` matches of two base Starter decks."""
    keys = [f"Starter/{name}" for name in STARTER]
    decks = {s: tuple((f"{s}{i}", k) for i, k in enumerate(keys)) for s in ("A", "B")}
    setup = MatchSetup(decks=decks, round=1, sets_in_play=("City",))
    return [setup] * n


def mixed_setups(n: int, seed: int) -> list[MatchSetup]:
    """``n`` round-7 matches of random 14-18-card decks from both boxes' A/B/C cards."""
    specs = load_catalogue()
    pool = [
        k for k, s in specs.items() if s.level in ("A", "B", "C") for _ in range(int(_copies(k)))
    ]
    rng = random.Random(seed)
    setups = []
    for _ in range(n):
        cards = [(i, k) for i, k in enumerate(pool)]
        rng.shuffle(cards)
        na, nb = rng.randint(14, 18), rng.randint(14, 18)
        decks = {"A": tuple(cards[:na]), "B": tuple(cards[na : na + nb])}
        rest = cards[na + nb :]
        piles = {p: tuple(c for c in rest if specs[c[1]].level == p) for p in ("A", "B", "C")}
        setups.append(
            MatchSetup(
                decks=decks,
                round=7,
                piles=piles,
                sets_in_play=ALL_SETS,
                trophies={"A": rng.randint(0, 6), "B": rng.randint(0, 6)},
                fans={"A": rng.randint(0, 12), "B": rng.randint(0, 12)},
            )
        )
    return setups


_COPIES: dict[str, int] = {}


def _copies(key: str) -> int:
    if not _COPIES:
        from matches.engine.cards import CATALOGUE_PATH

        with CATALOGUE_PATH.open(encoding="utf-8") as fh:
            for c in json.load(fh)["cards"]:
                _COPIES[f"{c['set']}/{c['name']}"] = int(c.get("copies") or 1)
    return _COPIES[key]


def rate(setups: list[MatchSetup], record: bool) -> float:
    """Matches per CPU second playing ``setups`` once (seed = index)."""
    start = time.process_time()
    for i, setup in enumerate(setups):
        play_match(setup, i, record=record)
    return len(setups) / max(time.process_time() - start, 1e-9)


def measure(n: int, seed: int, repeat: int = 5) -> dict[str, float]:
    """The four figures, each the best of ``repeat`` runs taken in turns."""
    starter, mixed = starter_setups(n), mixed_setups(n, seed)
    gc.collect()
    gc.freeze()
    rate(mixed[: min(n, 200)], False)  # warm the card table cache
    runs = {
        "starter_fast": (starter, False),
        "starter_recorded": (starter, True),
        "mixed_fast": (mixed, False),
        "mixed_recorded": (mixed, True),
    }
    best = dict.fromkeys(runs, 0.0)
    for _ in range(repeat):
        for name, (setups, record) in runs.items():
            best[name] = max(best[name], rate(setups, record))
    return {name: round(value) for name, value in best.items()}


def play_only(k: int, n: int, seed: int, record: bool, warm_up: int = 200) -> None:
    """Build ``n`` mixed setups (and ``warm_up`` more) and play the first ``k``.

    The warm-up ones play first, filling the caches."""
    setups = mixed_setups(n + warm_up, seed)
    for i, setup in enumerate(setups[n:]):
        play_match(setup, i, record=record)
    gc.collect()
    gc.freeze()
    for i, setup in enumerate(setups[:k]):
        play_match(setup, i, record=record)


def compare(rounds: int, n: int, seed: int, repeat: int) -> dict[str, dict[str, float]]:
    """The best figures of the pure and the compiled engine, and their ratios.

    The engines run in turns."""
    best: dict[str, dict[str, float]] = {"pure": {}, "compiled": {}}
    args = ["-n", str(n), "--seed", str(seed), "--repeat", str(repeat), "--json"]
    for _ in range(rounds):
        for engine, figures in best.items():
            env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
            if engine == "pure":
                env[native.PURE_ENV] = "1"
            out = subprocess.run(
                [sys.executable, "-m", "matches.engine.bench", *args],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            run = json.loads(out.stdout)
            if run.pop("engine") != engine:
                raise SystemExit(f"no {engine} engine to measure (scripts/build_engine.py)")
            for name, value in run.items():
                figures[name] = max(figures.get(name, 0.0), value)
    pure, compiled = best["pure"], best["compiled"]
    best["ratio"] = {name: round(compiled[name] / pure[name], 2) for name in pure}
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-n", type=int, default=5000, help="matches per figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    parser.add_argument(
        "--only", type=int, metavar="K", help="play K of the n mixed matches, print nothing"
    )
    parser.add_argument("--record", action="store_true", help="with --only: record events")
    parser.add_argument(
        "--compare", type=int, metavar="R", help="pure against compiled engine, R rounds in turns"
    )
    args = parser.parse_args(argv)
    if args.only is not None:
        play_only(args.only, args.n, args.seed, args.record)
        return 0
    if args.compare is not None:
        compared = compare(args.compare, args.n, args.seed, args.repeat)
        if args.json:
            print(json.dumps(compared))
        else:
            for name in compared["pure"]:
                pure, compiled = compared["pure"][name], compared["compiled"][name]
                print(
                    f"{name:>18}: pure {pure:>9,.0f}  compiled {compiled:>9,.0f} matches/s"
                    f"  x{compared['ratio'][name]:.2f}"
                )
        return 0
    figures = measure(args.n, args.seed, args.repeat)
    if args.json:
        print(json.dumps({"engine": native.kind(), **figures}))
    else:
        print(f"engine: {native.kind()}")
        for name, value in figures.items():
            print(f"{name:>18}: {value:>9,.0f} matches/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
