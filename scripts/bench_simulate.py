#!/usr/bin/env python
"""Benchmark of the admin's "Simulate" action: how long the POST takes to answer.

A measurement harness, not a test. It creates a database of its own (as ``bench_writes.py``),
loads the catalogue, and posts the card list's "Simulate" action for ``--cards`` A/B/C cards
through Django's test client, on the embedded server's task runner (a worker thread in the
web process, as ``scripts/serve`` without Redis runs it; ``--runner celery`` sends the tasks
to ``REDIS_URL``'s broker instead, and nobody consumes them). Each spell posts twice:

- ``one_by_one``: the action as it was, each card's row written and its task sent in
  autocommit, one card after another (the runner starts playing the first meanwhile);
- ``at_once``: ``card_balances_queue``, every row in one transaction, the tasks sent after it.

Between posts it drops the tasks not started and waits for the one running to end. It prints
the median and the spread of the answer times (``--json`` for the raw figures).

    .venv/bin/python scripts/bench_simulate.py --cards 11 --spells 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import django_test_database

PATHS = {
    "one_by_one": "bench_simulate.one_by_one",
    "at_once": "tournaments.services.balance.card_balances_queue",
}


def one_by_one(*, keys: Sequence[str], matches: int) -> dict[str, str | None]:
    """The action as it was before: each card queued in autocommit, one after another."""
    from tournaments.services.balance import card_balance_queue

    for key in keys:
        card_balance_queue(key=key, matches=matches)
    return dict.fromkeys(keys)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="The admin's Simulate action: answer time.")
    parser.add_argument("--cards", type=int, default=11)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--spells", type=int, default=5)
    parser.add_argument("--runner", choices=["thread", "celery"], default="thread")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args()


def post_once(client: Any, ids: list[int], matches: int) -> float:
    action = {"action": "simulate", "_selected_action": ids, "matches": str(matches)}
    started = time.perf_counter()
    response = client.post("/admin/cards/card/", action)
    spent = (time.perf_counter() - started) * 1000
    assert response.status_code == 302, response.status_code
    return spent


def quiet(runner: str) -> None:
    """Drop the tasks not started, wait for the one running to end, forget the rows."""
    from infra.taskqueue import clear_runner
    from tournaments.models import CardBalance

    if runner == "thread":
        clear_runner()
        while CardBalance.objects.filter(status="running").exists():
            time.sleep(0.05)
    CardBalance.objects.all().delete()


def measure(args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from cards.catalogue import catalogue_load
    from cards.models import Card
    from server.celery import app

    app.conf.task_always_eager = False
    settings.TASK_RUNNER = args.runner
    catalogue_load()
    admin = User.objects.create_superuser("bench", "bench@example.com", "bench")
    client = Client()
    client.force_login(admin)
    ids = list(Card.objects.filter(level__in=["A", "B", "C"]).values_list("pk", flat=True))
    ids = ids[: args.cards]
    client.get("/admin/cards/card/")  # warm up
    spent: dict[str, list[float]] = {name: [] for name in PATHS}
    for _spell in range(args.spells):
        for name, path in PATHS.items():
            settings.CARD_SIMULATE = path
            spent[name].append(post_once(client, ids, args.matches))
            quiet(args.runner)
    return {name: _summary(times) for name, times in spent.items()}


def _summary(times: list[float]) -> dict[str, Any]:
    return {
        "ms_median": round(statistics.median(times), 1),
        "ms_min": round(min(times), 1),
        "ms_max": round(max(times), 1),
        "ms": [round(t, 1) for t in times],
    }


def main() -> None:
    args = parse_args()
    with django_test_database():
        result = measure(args)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"Simulate, {args.cards} cards x {args.matches} pairs, {args.runner} runner, "
        f"{args.spells} spells (POST answer time):"
    )
    for name, row in result.items():
        print(
            f"  {name:11} median {row['ms_median']:8.1f} ms  "
            f"(min {row['ms_min']:.1f}, max {row['ms_max']:.1f})"
        )


if __name__ == "__main__":
    main()
