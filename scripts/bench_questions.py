#!/usr/bin/env python
"""The champion's card questions: their CPU cost and what they change, in one run.

A measurement harness, not a test. Plays ``--matches`` seeded round-7 matches of random decks
(``matches.engine.bench.mixed_setups``), recorded as the services record them, once with each
side in turn answering as a champion (``ChampionPolicy``) against default answers, and once with
default answers on both sides. It prints the CPU milliseconds of one champion question (p50,
p99, max) and of one whole match with a champion seat against the same match with default
answers, the rollouts and kept samples per question, how many answers differ from the default,
and how many of the champion's seats won where the default lost (and the reverse).

    .venv/bin/python scripts/bench_questions.py --matches 200
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from statistics import quantiles
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from matches.engine import DefaultPolicy, MatchResult, native, play_match
from matches.engine.bench import mixed_setups
from matches.engine.model import Question, SideView
from tournaments.rules.bots.foresight import ChampionPolicy, best_answer


class Measured(ChampionPolicy):
    """A champion that keeps, per question, its CPU time and how it decided."""

    def __init__(self, seed: object, side: str, log: list[dict[str, Any]]) -> None:
        super().__init__(seed, side)
        self.log = log

    def answer_seeing(self, question: Question, view: SideView) -> list[Any]:
        started = time.process_time()
        chosen, info = best_answer(question, view, self.seed, self.pool)
        ms = (time.process_time() - started) * 1000
        self.log.append({**info, "ms": ms, "changed": list(chosen) != list(question.default)})
        return chosen


def cut(samples: list[float]) -> dict[str, float]:
    if len(samples) < 2:
        return {"p50": round(samples[0], 2) if samples else 0.0, "p99": 0.0, "max": 0.0}
    q = quantiles(samples, n=100, method="inclusive")
    return {"p50": round(q[49], 2), "p99": round(q[98], 2), "max": round(max(samples), 2)}


def run(matches: int, seed: int) -> dict[str, Any]:
    log: list[dict[str, Any]] = []
    champion_ms: list[float] = []
    default_ms: list[float] = []
    gains = losses = 0
    for index, setup in enumerate(mixed_setups(matches, seed)):
        for side in ("A", "B"):
            started = time.process_time()
            result = play_match(setup, index, {side: Measured(index, side, log)})
            champion_ms.append((time.process_time() - started) * 1000)
            started = time.process_time()
            default = play_match(setup, index, {side: DefaultPolicy()})
            default_ms.append((time.process_time() - started) * 1000)
            assert isinstance(result, MatchResult) and isinstance(default, MatchResult)
            gains += result.winner == side and default.winner != side
            losses += result.winner != side and default.winner == side
    simulated = [info for info in log if info["rollouts"]]
    return {
        "engine": native.kind(),
        "matches": 2 * matches,
        "questions": len(log),
        "simulated": len(simulated),
        "changed": sum(info["changed"] for info in log),
        "question_ms": cut([info["ms"] for info in log]),
        "rollouts": cut([float(info["rollouts"]) for info in simulated]),
        "samples": cut([float(info["samples"]) for info in simulated]),
        "match_ms": {"champion": cut(champion_ms), "default": cut(default_ms)},
        "mean_match_ms": {
            "champion": round(sum(champion_ms) / len(champion_ms), 2),
            "default": round(sum(default_ms) / len(default_ms), 2),
        },
        "champion_won_where_default_lost": gains,
        "champion_lost_where_default_won": losses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="JSON on one line (else indented).")
    args = parser.parse_args()
    print(json.dumps(run(args.matches, args.seed), indent=None if args.json else 1))


if __name__ == "__main__":
    main()
