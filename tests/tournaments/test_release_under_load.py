"""The one release clock on a saturated machine: a live server plays a tournament while a busy
loop runs on every core, and no channel shows a fact before its release instant.

``examples/play.py`` plays seat 0 against three bots; a spectator's stream and a poller of the
REST view, REST match list and GraphQL view watch, each answer stamped with the instant it
arrived (one machine, one clock). Afterwards the server's database gives each event's release
instant (``visible_at``), and every fact each channel showed is checked against the events
released by the time it arrived. A stream frame arrives at or after its instant; a view's
``released_seq`` was released when it arrived, and what the view shows stands on events up to
it. The stream may reach a client later than a view shows the same fact: the figures printed
say by how much (docs/protocol.md, "One release clock").
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.live_server import ROOT, live_server

PACE_MS = 20
GQL = """query($id: Int!) { tournament(id: $id) { __typename ... on TournamentView {
  status round releasedSeq winners trophies { totalCount } } } }"""


def spin() -> None:
    while True:
        pass


@pytest.fixture
def saturated() -> Iterator[int]:
    """A busy loop per core, for the test's length."""
    spinners = [
        multiprocessing.Process(target=spin, daemon=True) for _ in range(os.cpu_count() or 2)
    ]
    for spinner in spinners:
        spinner.start()
    yield len(spinners)
    for spinner in spinners:
        spinner.kill()
        spinner.join()


@dataclass
class Seen:
    """What each channel showed, with the instant (epoch seconds) it arrived."""

    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    views: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    lists: list[tuple[float, list[dict[str, Any]]]] = field(default_factory=list)
    graphs: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    done: threading.Event = field(default_factory=threading.Event)


def watch_stream(url: str, tournament: int, seen: Seen) -> None:
    stream = url.replace("http", "ws", 1) + f"/ws/tournaments/{tournament}/?after=0"
    with connect(stream, open_timeout=600) as socket:
        for message in socket:
            frame = json.loads(message)
            seen.frames.append((time.time(), frame))
            if frame.get("kind") == "tournament_finished":
                break
    seen.done.set()


def get(url: str, body: bytes | None = None) -> Any:
    headers = {"Content-Type": "application/json"} if body else {}
    with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=600) as answer:
        return json.loads(answer.read())


def poll(url: str, tournament: int, seen: Seen) -> None:
    graphql = json.dumps({"query": GQL, "variables": {"id": tournament}}).encode()
    while not seen.done.is_set():
        view = get(f"{url}/api/v1/tournaments/{tournament}/")
        seen.views.append((time.time(), view))
        listed = get(f"{url}/api/v1/tournaments/{tournament}/matches/")
        seen.lists.append((time.time(), listed))  # stamped as each answer has come
        found = get(f"{url}/graphql/", graphql)["data"]["tournament"]
        seen.graphs.append((time.time(), found))


def release_instants(database: Path, tournament: int) -> dict[int, tuple[float, str, Any]]:
    """seq -> (release instant, kind, payload) of what a spectator is sent, from the server's
    own database."""
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT seq, visible_at, CASE WHEN audience IS NULL THEN kind ELSE 'hidden' END,"
            " payload FROM tournaments_tournamentevent WHERE tournament_id = ?",
            (tournament,),
        ).fetchall()
    instant = lambda text: datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()  # noqa: E731
    return {seq: (instant(at), kind, json.loads(payload)) for seq, at, kind, payload in rows}


@dataclass
class Log:
    """The tournament's log with its release instants."""

    events: dict[int, tuple[float, str, Any]]

    def upto(self, seq: int) -> list[tuple[str, Any]]:
        return [
            (kind, payload) for s, (_, kind, payload) in sorted(self.events.items()) if s <= seq
        ]

    def released_by(self, instant: float) -> list[tuple[str, Any]]:
        return [
            (kind, payload)
            for _, (at, kind, payload) in sorted(self.events.items())
            if at <= instant
        ]


def check_view(log: Log, arrived: float, view: dict[str, Any], released: int) -> None:
    """What a tournament view shows stands on events up to its cursor, all out when it came."""
    if released:
        assert log.events[released][0] <= arrived, "a view's cursor before its release"
    facts = log.upto(released)
    phases = {
        (kind.split("_")[0], payload["round"])
        for kind, payload in facts
        if kind.endswith("_phase_opened")
    }
    if view["status"] in ("deck", "match"):
        assert (view["status"], view["round"]) in phases, f"{view['status']} {view['round']} early"
    finished = sum(1 for kind, _ in facts if kind == "match_finished")
    trophies = view["trophies"]
    shown = trophies["totalCount"] if isinstance(trophies, dict) else len(trophies)
    assert shown <= finished, "a trophy before its match's result"
    over = any(kind == "tournament_finished" for kind, _ in facts)
    assert not view["winners"] or over, "champions before the end"


def check_matches(log: Log, arrived: float, listed: list[dict[str, Any]]) -> None:
    """Each match's result and events, as the list shows them, were out when it came."""
    facts = log.released_by(arrived)
    results = {payload["match"] for kind, payload in facts if kind == "match_finished"}
    steps: dict[int, int] = {}
    for kind, payload in facts:
        if kind == "match_event":
            steps[payload["match"]] = steps.get(payload["match"], 0) + 1
    for match in listed:
        assert match["winner"] is None or match["id"] in results, f"match {match['id']} early"
        assert match["events_released"] <= steps.get(match["id"], 0), f"{match['id']}'s events"


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s"


@pytest.mark.long
@pytest.mark.timeout(900)
def test_no_channel_shows_a_fact_before_its_release_on_a_saturated_machine(
    tmp_path: Path, saturated: int
) -> None:
    with live_server(tmp_path, PACE_MS) as url:
        player = subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "play.py"), url, "--seats", "4"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert player.stdout is not None
        first = player.stdout.readline()
        tournament = int(re.match(r"Tournament (\d+),", first).group(1))  # type: ignore[union-attr]
        seen = Seen()
        stream = threading.Thread(target=watch_stream, args=(url, tournament, seen))
        stream.start()
        poll(url, tournament, seen)
        stream.join()
        output = player.communicate(timeout=600)[0]
        assert player.returncode == 0, first + output
    log = Log(release_instants(tmp_path / "live.sqlite3", tournament))

    frames = [(at, frame) for at, frame in seen.frames if "seq" in frame]
    assert [frame["seq"] for _, frame in frames] == list(range(1, len(frames) + 1))
    late = [at - log.events[frame["seq"]][0] for at, frame in frames]
    assert min(late) >= 0, "a frame came before its release instant"
    for arrived, view in seen.views:
        check_view(log, arrived, view, view["released_seq"])
    for arrived, listed in seen.lists:
        check_matches(log, arrived, listed)
    for arrived, found in seen.graphs:
        check_view(log, arrived, found, found["releasedSeq"])

    delivered = {frame["seq"]: at for at, frame in frames}
    ahead = [
        delivered[view["released_seq"]] - at for at, view in seen.views if view["released_seq"]
    ]
    print(
        f"\n{saturated} busy loops; {len(frames)} frames, {len(seen.views)} views,"
        f" {len(seen.lists)} match lists, {len(seen.graphs)} GraphQL views."
        f"\nstream frame after its release: {spread(late)}"
        f"\nview's cursor before the stream delivered it: {spread(ahead)}"
    )
