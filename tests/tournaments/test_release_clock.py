"""One release clock: no channel shows a fact of a match before the stream has released it.

Random rounds (seats, seeds, the order the matches are recorded in and the instants they are
recorded at) of matches of unequal lengths are played under a clock the test moves itself. At
every instant an event is due, before and after the clock's sweep releases what is due, every
channel is read — the stream as a spectator, REST's tournament view, match list, match views and
match events, GraphQL's tournament and matches — and every fact it shows must be backed by an
event the stream has already released.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches.models import Match
from matches.observer import SPECTATOR, Viewer
from tests.graphql.client import GraphQL
from tests.graphql.rest_shape import rest_shape
from tests.tournaments.play import Player, open_game
from tournaments.log_shapes import TournamentEventView
from tournaments.models import TournamentEvent
from tournaments.selectors.events import events_after, released_seq
from tournaments.services import matchplay, rounds
from tournaments.services.clock import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)

PACE = 1.0  # seconds between a match's events: the test's clock moves, nothing sleeps
ROUNDS_PER_GAME = 2
GAMES = 3
STEP_SAMPLE = 0.1  # of a match's steps, the share the channels are also read at


class Clock:
    """``timezone.now`` as the test sets it."""

    def __init__(self) -> None:
        self.now = timezone.now()

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[Clock]:
    settings.MATCH_EVENT_PACE_SECONDS = PACE
    moved = Clock()
    monkeypatch.setattr(timezone, "now", moved)
    yield moved


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The matches a Match Phase opened, held for the test to play in an order of its own."""
    queued: list[int] = []
    monkeypatch.setattr(rounds, "_queue_matches", lambda _t, ids: queued.extend(ids))
    return queued


@dataclass
class Released:
    """What the stream has released to a spectator so far."""

    seq: int = 0
    finished: dict[int, int] = field(default_factory=dict)  # match -> winner seat
    events: dict[int, int] = field(default_factory=dict)  # match -> public match events
    ends: set[int] = field(default_factory=set)
    waiting: set[int] = field(default_factory=set)
    phases: set[tuple[str, int]] = field(default_factory=set)
    over: bool = False


def _stream(tournament_id: int) -> Released:
    seen = Released()
    while True:
        part = events_after(tournament_id=tournament_id, after=seen.seq, viewer=SPECTATOR)
        for frame in part.events:
            _note(seen, frame)
        if part.last_seq == seen.seq:
            return seen
        seen.seq = part.last_seq


def _note(seen: Released, frame: TournamentEventView) -> None:
    kind, payload = frame.kind, frame.payload or {}
    if kind == "match_event":
        match = payload["match"]
        seen.events[match] = seen.events.get(match, 0) + 1
        if payload["event"]["kind"] == "end":
            seen.ends.add(match)
    elif kind == "match_finished":
        seen.finished[payload["match"]] = payload["winner"]
    elif kind == "match_waiting":
        seen.waiting.add(payload["match"])
    elif kind in ("deck_phase_opened", "match_phase_opened"):
        seen.phases.add((kind.split("_")[0], payload["round"]))
    elif kind == "tournament_finished":
        seen.over = True


def _check_match(seen: Released, shown: dict[str, Any]) -> None:
    match = shown["id"]
    if shown["winner"] is not None or shown["status"] == "finished":
        assert match in seen.finished, f"match {match} shown finished before the stream"
        assert match in seen.ends
        assert shown["winner"] in (None, seen.finished[match])
    if shown["status"] == "waiting":
        assert match in seen.waiting, f"match {match} shown waiting before the stream"
    released = int(shown.get("events_released", shown.get("eventsReleased", 0)))
    assert released <= seen.events.get(match, 0), f"match {match}: more events than the stream"


def _check_tournament(seen: Released, view: dict[str, Any], matches: list[Any]) -> None:
    status, number = view["status"], view["round"]
    if status in ("deck", "match"):
        assert (status, number) in seen.phases, f"{status} {number} shown before the stream"
    assert not view["winners"] or seen.over, "winners shown before the stream"
    rounds_of = {(m["round"], m["park"]): m["id"] for m in matches}
    for trophy in view["trophies"]:
        match = rounds_of[(trophy["round"], trophy["park"])]
        assert seen.finished.get(match) == trophy["seat"], f"trophy of {match} came early"
    wins: dict[int, int] = {}
    for winner in seen.finished.values():
        wins[winner] = wins.get(winner, 0) + 1
    for row in view["standings"]:
        assert row["trophies"] <= wins.get(row["seat"], 0), "standings ran ahead of the stream"


GQL = """query($id: Int!) {
  tournament(id: $id) { __typename ... on TournamentView {
    status round releasedSeq winners trophies { edges { node { park round seat } } }
    standings { edges { node { seat trophies } } } } }
  matches(tournamentId: $id, first: 100) {
    edges { node { databaseId round park status winner eventsReleased } } }
}"""


def _read_every_channel(host: Player) -> None:
    seen = _stream(host.id)
    assert released_seq(host.id) == seen.seq, "the stream's cursor is the released cursor"
    view = host.client.get(f"/api/v1/tournaments/{host.id}/").json()
    listed = host.client.get(f"/api/v1/tournaments/{host.id}/matches/").json()
    assert view["released_seq"] == seen.seq, "the view names the cursor it was read at"
    _check_tournament(seen, view, listed)
    for shown in listed:
        _check_match(seen, shown)
        if shown["round"] != view["round"] and shown["id"] in seen.finished:
            continue  # a match released before: its own views were read while it played
        alone = host.client.get(f"/api/v1/matches/{shown['id']}/").json()
        _check_match(seen, alone)
        frames = host.client.get(f"/api/v1/matches/{shown['id']}/events/").json()
        visible = [f for f in frames if f["kind"] != "hidden"]
        assert len(visible) <= seen.events.get(shown["id"], 0)
        assert all(f["kind"] != "end" for f in visible) or shown["id"] in seen.ends
    data = rest_shape(GraphQL().data(GQL, id=host.id))  # REST's values of its enums
    assert data["tournament"]["released_seq"] == seen.seq
    _check_tournament(seen, data["tournament"], listed)
    for shown in data["matches"]:
        _check_match(seen, shown)


def _play_round(host: Player, held: list[int], clock: Clock, rng: random.Random) -> None:
    """Draft until the Match Phase opens, record its matches in a random order at random
    instants, then step the clock over every instant an event is due."""
    while host.get()["status"] == "deck":
        assert host.act()
    order = list(held)
    held.clear()
    rng.shuffle(order)
    for match_id in order:
        clock.now += timedelta(seconds=rng.choice([0, 0.3, PACE, 3 * PACE]))
        matchplay.match_play(match_id=match_id, tournament_id=host.id)
        _read_every_channel(host)
    for due in _due_instants(host.id, clock.now, rng):
        clock.now = due
        _read_every_channel(host)  # the instant has come; the clock has not acted yet
        sweep_deadlines()
        _read_every_channel(host)


def _due_instants(tournament_id: int, after: datetime, rng: random.Random) -> list[datetime]:
    """The instants a fact may change: every event that is not a match's step (phases,
    results), every match's ``end``, and a random sample of the steps between."""
    rows = TournamentEvent.objects.filter(tournament_id=tournament_id, visible_at__gt=after)
    instants = set()
    for kind, payload, at in rows.values_list("kind", "payload", "visible_at"):
        step = kind == "match_event" and payload["event"]["kind"] != "end"
        if not step or rng.random() < STEP_SAMPLE:
            instants.add(at)
    return sorted(instants)


@pytest.mark.timeout(600)
def test_no_channel_shows_a_fact_before_the_stream_releases_it(
    catalogue: Any, clock: Clock, held: list[int]
) -> None:
    rng = random.Random(23)
    for _ in range(GAMES):
        (host,) = open_game(seats=rng.choice([4, 6, 8]), seed=rng.randrange(10**6))
        for _ in range(ROUNDS_PER_GAME):
            if host.get()["status"] == "finished":
                break
            _play_round(host, held, clock, rng)
        lengths = {
            len(m.event_counts) and m.event_counts["public"]
            for m in Match.objects.filter(tournament_id=host.id)
        }
        assert len(lengths) > 1, "the rounds had matches of unequal lengths"


def _live_round(seed: int, held: list[int]) -> tuple[Player, Match] | None:
    """A round whose bot match is recorded first and the live host's match then stops at a
    question (``None``: this seed's host match asked nothing)."""
    (host,) = open_game(seats=4, seed=seed, live=True, winter_park="all")
    while host.get()["status"] == "deck":
        assert host.act()
    matches = Match.objects.filter(pk__in=held)
    mine = [m for m in matches if host_seat(m, host)]
    others = [m for m in matches if not host_seat(m, host)]
    held.clear()
    for match in [*others, *mine]:
        matchplay.match_play(match_id=match.pk, tournament_id=host.id)
    (asked,) = mine
    asked.refresh_from_db()
    return (host, asked) if asked.status == "waiting" else None


def host_seat(match: Match, host: Player) -> bool:
    return 0 in (match.seat_a.number, match.seat_b.number)


def test_a_live_question_is_asked_when_the_log_before_it_is_out(
    catalogue: Any, clock: Clock, held: list[int]
) -> None:
    found = next(filter(None, (_live_round(seed, held) for seed in range(30))), None)
    assert found is not None, "no seed asked the live host a question"
    host, match = found
    asked = datetime.fromisoformat(match.question["asked_at"])  # type: ignore[index]
    assert asked > clock.now, "a bot match's paced events were logged ahead of the question"
    assert match.question_deadline == asked + timedelta(seconds=30)
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert (shown["status"], shown["question"]) == ("playing", None)
    mine = events_after(tournament_id=host.id, after=0, viewer=Viewer(number=0)).events
    assert all(frame.kind != "match_question" for frame in mine)
    refused = host.client.post(
        f"/api/v1/matches/{match.pk}/answer/",
        {"question": match.question["seq"], "answer": match.question["default"]},  # type: ignore[index]
        format="json",
        headers=host.headers,
    )
    assert refused.status_code == 409 and refused.json()["code"] == "no_question"
    clock.now = asked
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert shown["status"] == "waiting" and shown["question"]["seq"] == match.question["seq"]  # type: ignore[index]
    assert "asked_at" not in shown["question"]
    mine = events_after(tournament_id=host.id, after=0, viewer=Viewer(number=0)).events
    assert [f for f in mine if f.kind == "match_question"], "the stream asks it now"
