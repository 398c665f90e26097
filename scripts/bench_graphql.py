#!/usr/bin/env python
"""Benchmark of the GraphQL reads against their REST twins, in process, in one run.

A measurement harness, not a test. On a database of its own (as ``scripts/bench_writes.py``) it
plays one finished bot-only tournament of ``--seats`` seats, then times through the full Django
stack (middleware, URL routing, the view, JSON; no network) each pair: the tournament as a
spectator and as a seat (every field of the view selected), and every list with a REST twin
that a finished bot tournament fills: its matches (as a spectator and as a seat), a match's
events, the tournament list, its chat, the card sets and one set's cards — each GraphQL
connection and the REST request that answers the same data to the same viewer.
Rounds take turns so that a slow spell of a shared machine falls on every figure; each figure is
the median of ``--rounds``, each ratio the median of the rounds' ratios (with their least and
greatest), beside the anchor of ``bench_anchors`` (a fixed pure-Python workload's CPU) measured
in the same run. It prints microseconds per request and GraphQL / REST.

Then the whole event log replayed to a seat and to a spectator, over the REST stream
(``/ws/tournaments/{id}/``) and over the ``tournamentEvents`` subscription, ``--spells`` times
taking turns: the median time of each, and the median of the spells' subscription / stream
ratios with their least and greatest (a loaded machine moves both of a spell's figures alike,
so the ratio is steadier than either).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/challengers \\
        .venv/bin/python scripts/bench_graphql.py --seats 8
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_writes import Meter, django_test_database, play

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCKS["wall"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="GraphQL reads against their REST twins.")
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--requests", type=int, default=100, help="per figure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--spells",
        type=int,
        default=7,
        help="replays of the log per viewer and transport (0: none)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="wall time, or this process's CPU time (steadier on a loaded machine)",
    )
    parser.add_argument("--json", action="store_true")
    return parser.parse_args()


def rest(client: Any, url: str, headers: dict[str, str], count: int) -> Callable[[], float]:
    def run() -> float:
        began = clock()
        for _ in range(count):
            response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.status_code)
        return (clock() - began) / count * 1e6

    return run


def graphql(client: Any, query: str, headers: dict[str, str], count: int) -> Callable[[], float]:
    body = json.dumps({"query": query})

    def run() -> float:
        began = clock()
        for _ in range(count):
            response = client.post(
                "/graphql/", body, content_type="application/json", headers=headers
            )
        assert response.status_code == 200 and b'"errors"' not in response.content, query
        return (clock() - began) / count * 1e6

    return run


CARD = (
    "id key set setId box name level power powerIsRound copies copiesPerStarterDeck keyword "
    "timing effect confidence note effectCode effectParams translations retired curated databaseId"
)
CARD_SET = (
    "id name box kind expectedCopies starterDecks designs copyTotal unknownCopies note retired "
    "playable missing curated databaseId"
)


def card_set_of_most() -> tuple[str, int]:
    """The set with the most designs that one page (at most 100) holds whole, and its size."""
    from django.db.models import Count

    from cards.models import CardSet

    sets = CardSet.objects.annotate(n=Count("cards")).filter(n__lte=100).order_by("-n", "name")
    found = sets.values_list("name", "n").first()
    assert found is not None
    return found


def pairs(tournament_id: int, match_id: int) -> dict[str, tuple[str, str, bool]]:
    """Each read: its REST URL, its GraphQL query, and whether it is read as the seat."""
    from urllib.parse import quote

    from tests.graphql.client import TOURNAMENT_FIELDS

    view = f"{{ tournament(id: {tournament_id}) {{ {TOURNAMENT_FIELDS} }} }}"
    matches = (
        f"{{ matches(tournamentId: {tournament_id}, first: 100) {{ edges {{ node {{ id tournament "
        "round park kind status winner reason fansGained eventsReleased "
        "seats { number name side } question { seq } } } } }"
    )
    events = (
        f"{{ match(id: {match_id}) {{ events(first: 500) "
        "{ edges { node { seq kind payload } } } } }"
    )
    listing = (
        "{ tournaments { totalCount edges { node { id status round seatCount seatsTaken "
        "freeSeats host basicSet additionalSets beachCup winterMode robotDifficulty winners "
        "createdAt } } } }"
    )
    card_set, _designs = card_set_of_most()
    card_sets = f"{{ cardSets(first: 100) {{ totalCount edges {{ node {{ {CARD_SET} }} }} }} }}"
    cards = (
        f"{{ cards(set: {json.dumps(card_set)}, first: 100) "
        f"{{ totalCount edges {{ node {{ {CARD} }} }} }} }}"
    )
    chat = (
        f"{{ tournamentChat(tournamentId: {tournament_id}, first: 100) "
        "{ totalCount edges { node { seq seat spectator name text line } } } }"
    )
    base = "/api/v1"
    return {
        "tournament (spectator)": (f"{base}/tournaments/{tournament_id}/", view, False),
        "tournament (seat)": (f"{base}/tournaments/{tournament_id}/", view, True),
        "match list": (f"{base}/tournaments/{tournament_id}/matches/", matches, False),
        "match list (seat)": (f"{base}/tournaments/{tournament_id}/matches/", matches, True),
        "match events": (f"{base}/matches/{match_id}/events/", events, False),
        "tournament list": (f"{base}/tournaments/", listing, False),
        "chat": (f"{base}/tournaments/{tournament_id}/chat/", chat, False),
        "card sets": (f"{base}/card-sets/", card_sets, False),
        "cards of a set": (f"{base}/cards/?set={quote(card_set)}", cards, False),
    }


SUBSCRIPTION = "subscription { tournamentEvents(tournamentId: %d) { seq kind payload } }"


async def stream_replay(application: Any, tournament_id: int, last: int, token: str) -> float:
    """Seconds from connecting to ``/ws/tournaments/{id}/`` to its ``last`` frame."""
    from channels.testing import WebsocketCommunicator

    protocols = ["challengers.v1", f"bearer.{token}"] if token else ["challengers.v1"]
    began = clock()
    path = f"/ws/tournaments/{tournament_id}/"
    socket_ = WebsocketCommunicator(application, path, subprotocols=protocols)
    assert (await socket_.connect())[0]
    while json.loads(await socket_.receive_from(timeout=60))["seq"] < last:
        pass
    spent = clock() - began
    await socket_.disconnect()
    return spent


async def subscription_replay(application: Any, tournament_id: int, last: int, token: str) -> float:
    """Seconds from opening the GraphQL socket to the subscription's ``last`` event."""
    from channels.testing import WebsocketCommunicator

    began = clock()
    socket_ = WebsocketCommunicator(
        application, "/ws/graphql/", subprotocols=["graphql-transport-ws"]
    )
    assert (await socket_.connect())[0]
    payload = {"Authorization": f"Bearer {token}"} if token else {}
    await socket_.send_json_to({"type": "connection_init", "payload": payload})
    assert (await socket_.receive_json_from(timeout=60))["type"] == "connection_ack"
    query = SUBSCRIPTION % tournament_id
    await socket_.send_json_to({"id": "1", "type": "subscribe", "payload": {"query": query}})
    while True:
        message = await socket_.receive_json_from(timeout=60)
        assert message["type"] == "next", message
        if message["payload"]["data"]["tournamentEvents"]["seq"] >= last:
            break
    spent = clock() - began
    await socket_.disconnect()
    return spent


VIEWERS = {"seat": "bench", "spectator": ""}


def replays(tournament_id: int, spells: int) -> dict[str, dict[str, float]]:
    """The whole log replayed to each viewer over the REST stream and over the subscription,
    ``spells`` times taking turns; per viewer the median seconds of each and the median,
    least and greatest of the spells' subscription / stream ratios."""
    import asyncio

    from channels.routing import URLRouter

    from server.routing import websocket_urlpatterns
    from tournaments.selectors.events import released_seq

    application = URLRouter(websocket_urlpatterns)  # the consumers, without the origin check
    last = released_seq(tournament_id)
    figures = {}
    for viewer, token in VIEWERS.items():
        asyncio.run(subscription_replay(application, tournament_id, last, token))  # warm up
        times: dict[str, list[float]] = {"stream": [], "subscription": []}
        for _ in range(spells):
            times["stream"].append(
                asyncio.run(stream_replay(application, tournament_id, last, token))
            )
            times["subscription"].append(
                asyncio.run(subscription_replay(application, tournament_id, last, token))
            )
        ratios = [g / r for g, r in zip(times["subscription"], times["stream"], strict=True)]
        figures[f"replay of {last} events ({viewer})"] = {
            "rest_us": round(statistics.median(times["stream"]) * 1e6),
            "graphql_us": round(statistics.median(times["subscription"]) * 1e6),
            "ratio": round(statistics.median(ratios), 2),
            "ratio_min": round(min(ratios), 2),
            "ratio_max": round(max(ratios), 2),
        }
    return figures


def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    from django.test import Client, override_settings

    from matches.models import Match
    from tournaments.models import Seat, Tournament

    tournament = Tournament.objects.get()
    match = Match.objects.filter(tournament=tournament).order_by("pk").last()
    assert match is not None
    seat = Seat.objects.filter(tournament=tournament, number=0).get()
    seat.token_hash = hashlib.sha256(b"bench").hexdigest()
    seat.save(update_fields=["token_hash"])
    as_seat = {"Authorization": "Bearer bench"}
    runs: dict[tuple[str, str], Callable[[], float]] = {}
    with override_settings(DEBUG=False):
        client = Client()
        for name, (url, query, seated) in pairs(tournament.pk, match.pk).items():
            headers = as_seat if seated else {}
            runs[(name, "rest")] = rest(client, url, headers, args.requests)
            runs[(name, "graphql")] = graphql(client, query, headers, args.requests)
        for run in runs.values():
            run()  # warm up (and fill the per-tournament caches)
        times: dict[tuple[str, str], list[float]] = {key: [] for key in runs}
        for _ in range(args.rounds):
            for key, run in runs.items():
                times[key].append(run())
        replayed = replays(tournament.pk, args.spells) if args.spells else {}
    names = dict.fromkeys(name for name, _ in times)
    figures = {name: spread(times[(name, "rest")], times[(name, "graphql")]) for name in names}
    return figures | replayed


def spread(rest_us: list[float], graphql_us: list[float]) -> dict[str, float]:
    """The median of each transport's rounds, and the median, least and greatest of the rounds'
    GraphQL / REST ratios (a round's two figures are taken minutes apart at most)."""
    ratios = [g / r for g, r in zip(graphql_us, rest_us, strict=True)]
    return {
        "rest_us": round(statistics.median(rest_us)),
        "graphql_us": round(statistics.median(graphql_us)),
        "ratio": round(statistics.median(ratios), 2),
        "ratio_min": round(min(ratios), 2),
        "ratio_max": round(max(ratios), 2),
    }


def main() -> None:
    global clock
    args = parse_args()
    clock = CLOCKS[args.clock]
    sys.argv = [sys.argv[0], "--tournaments", "0", "--seats", str(args.seats)]
    with django_test_database():
        from bench_writes import parse_args as writes_args

        play(writes_args(), Meter())
        from bench_anchors import python_cpu_ms

        anchor = python_cpu_ms()
        figures = measure(args)
        figures["anchor"] = {"python_cpu_ms": round(python_cpu_ms(), 1), "before": anchor}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"in process, {args.clock} time, median of {args.rounds} x {args.requests}; "
        f"finished {args.seats}-seat; anchor (Python workload CPU, before / after) "
        f"{figures['anchor']['before']:.1f} / {figures['anchor']['python_cpu_ms']:.1f} ms"
    )
    for name, row in figures.items():
        if name == "anchor":
            continue
        spread = f" ({row['ratio_min']:.2f}-{row['ratio_max']:.2f})" if "ratio_min" in row else ""
        print(
            f"{name:34} REST {row['rest_us']:7.0f} us   GraphQL {row['graphql_us']:7.0f} us"
            f"   {row['ratio']:5.2f} x{spread}"
        )


if __name__ == "__main__":
    main()
