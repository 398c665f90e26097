#!/usr/bin/env python
"""Benchmark of the league reads, REST and GraphQL, in process, against a bare DRF list.

A measurement harness, not a test. On a database of its own (``scripts/bench_writes.py``) it
records ``--tournaments`` finished bot-only season tournaments of ``--seats`` seats in one league,
then times the league reads through the full Django stack (REST's standings, league, member
history and results; GraphQL's standings and league with every field) and, in the same run, the
bare 20-card list of ``scripts/bench_urls.py``. Rounds take turns; each figure is the median of
``--rounds``. ``--dump DIR`` writes each REST body as it was sent (to compare two trees byte for
byte).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_leagues.py --tournaments 3 --seats 8
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_writes import django_test_database

# Every field of the GraphQL standings and league (the rows a page of up to 100).
SKILL = "rating { mu sigma ordinal }"
ROW = f"rank member kind points wins finals fans played vector decidedBy {SKILL}"
SEASON = (
    "id name startsOn endsOn scoring options { basicSet additionalSets beachCup winterPark "
    "robotDifficulty } botsAllowed adviceAllowed tournaments archived joinCode"
)


def queries(paged: bool) -> dict[str, str]:
    """The GraphQL reads; ``paged``: the lists are connections (``edges { node }``)."""

    def page(name: str, body: str) -> str:
        return (
            f"{name}(first: 100) {{ edges {{ node {{ {body} }} }} }}"
            if paged
            else (f"{name} {{ {body} }}")
        )

    return {
        "graphql standings": (
            f'{{ standings(slug: "club") {{ season kind tiebreak {page("rows", ROW)} }} }}'
        ),
        "graphql league": (
            f'{{ league(slug: "club") {{ slug name description public members '
            f"{page('seasons', SEASON)} }} }}"
        ),
    }


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="League reads against a bare DRF list.")
    parser.add_argument("--tournaments", type=int, default=3)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--requests", type=int, default=50, help="per figure and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--dump", type=Path, help="write each REST body into this directory")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def league(args: argparse.Namespace) -> tuple[str, int, str]:
    """A league with one season of recorded bot tournaments: its organizer's token, a
    tournament id and a member's handle."""
    from rest_framework.test import APIClient

    from cards.catalogue import catalogue_load
    from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season

    catalogue_load()
    client = APIClient()
    token = create_organizer("bench")
    slug, season = league_with_season(client, token, "club")
    tids = [
        bot_tournament(client, token, slug, season, args.seats) for _ in range(args.tournaments)
    ]
    standings = client.get(f"/api/v1/leagues/{slug}/standings/").json()
    return token, tids[-1], standings["rows"][0]["member"]


def timer(client: Any, send: Callable[[], Any], count: int) -> Callable[[], float]:
    def run() -> float:
        began = time.perf_counter()
        for _ in range(count):
            response = send()
        assert response.status_code == 200, response.content[:300]
        assert b'"errors"' not in response.content[:20], response.content[:300]
        return (time.perf_counter() - began) / count * 1e6

    return run


def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    from django.test import override_settings
    from rest_framework.test import APIClient

    from server.schema import schema

    token, tid, handle = league(args)
    headers = {"Authorization": f"Token {token}"}
    rest = {
        "bare 20-card list": "/bench/bare/",
        "rest standings": "/api/v1/leagues/club/standings/",
        "rest league": "/api/v1/leagues/club/",
        "rest member history": f"/api/v1/leagues/club/members/{quote(handle)}/",
        "rest results": f"/api/v1/leagues/club/tournaments/{tid}/results/",
        "rest members": "/api/v1/leagues/club/members/",
    }
    rows = schema._schema.type_map["Standings"].fields["rows"]  # type: ignore[attr-defined]
    graphql = queries(paged="first" in rows.args)
    import bench_urls  # noqa: F401  (the product's URLs and the yardstick)

    times: dict[str, list[float]] = {}
    with override_settings(ROOT_URLCONF="bench_urls", DEBUG=False):
        client = APIClient()
        get = partial(client.get, headers=headers)
        post = partial(client.post, "/graphql/", content_type="application/json", headers=headers)
        runs = {name: timer(client, partial(get, url), args.requests) for name, url in rest.items()}
        for name, query in graphql.items():
            body = json.dumps({"query": query})
            runs[name] = timer(client, partial(post, body), args.requests)
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            for name, url in rest.items():
                body = client.get(url, headers=headers).content
                (args.dump / f"{name.replace(' ', '_')}.json").write_bytes(body)
        for run in runs.values():
            run()  # warm up
        for _ in range(args.rounds):
            for name, run in runs.items():
                times.setdefault(name, []).append(run())
    medians = {name: statistics.median(found) for name, found in times.items()}
    bare = medians["bare 20-card list"]
    return {name: {"us": round(us), "ratio": round(us / bare, 2)} for name, us in medians.items()}


def main() -> None:
    args = parse_args()
    with django_test_database():
        figures = measure(args)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"in process, median of {args.rounds} x {args.requests} requests")
    for name, row in figures.items():
        print(f"{name:24} {row['us']:8.0f} us/request   {row['ratio']:5.2f} x the bare list")


if __name__ == "__main__":
    main()
