"""Real Celery worker processes play the matches and the bots; a killed worker loses nothing.

Every test here starts its own workers (``conftest.workers``) on a private queue, against the
pytest database and ``REDIS_URL``; the test process itself only drives human seats over REST.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.engine.model import MatchResult
from matches.models import Match, MatchEvent, MatchStatus
from tests.tournaments.play import Player, all_uids, card_locations, create
from tests.workers.conftest import Workers, full_stack, wait_for
from tournaments.models import Seat, SeatKind, Status, Tournament, TournamentEvent, Trophy
from tournaments.services.matchplay import side_seat
from tournaments.services.matchruns import match_verify, run_engine

pytestmark = [pytest.mark.real_worker, pytest.mark.django_db(transaction=True), full_stack]

VISIBILITY_TIMEOUT = 3


def start_tournament(seats: int, humans: int, seed: int) -> list[Player]:
    """Humans who answer by policy (the host first), bots in the other seats, started."""
    client = APIClient()
    ticket = create(client, seats=seats, seed=seed)
    players = [Player(client, ticket["id"], ticket["seat"]["token"])]
    for n in range(1, humans):
        body = {"code": ticket["code"], "name": f"Human {n}"}
        joined = client.post("/api/v1/tournaments/join/", body, format="json").json()
        players.append(Player(client, ticket["id"], joined["seat"]["token"]))
    for player in players:
        response = client.patch(
            f"/api/v1/tournaments/{player.id}/seat/",
            {"answers_live": False},
            format="json",
            headers=player.headers,
        )
        assert response.status_code == 200, response.json()
    if seats > humans:
        players[0].post("bots", {"count": seats - humans})
    players[0].post("start")
    return players


def draft_until_done(players: list[Player]) -> None:
    """Every human takes round 1's Deck Phase steps until none of them has anything left to do.

    Round 1 only: the worker may play the round and open round 2 while the loop still runs, and
    steps taken there would carry the game past the round the test waits for."""
    while any(player.act(round_number=1) for player in players):
        pass


def tournament(players: list[Player]) -> Tournament:
    return Tournament.objects.get(pk=players[0].id)


def replay(match: Match) -> MatchResult:
    """What the match must record: every seat answers by policy, so no answers are stored."""
    result = run_engine(match, [])
    assert isinstance(result, MatchResult)
    return result


def check_round_one_recorded_once(
    players: list[Player],
    seats_before: dict[int, tuple[int, list[int]]],
    recorded_before: frozenset[int] = frozenset(),
) -> None:
    """Round one's matches each recorded exactly once: their events, one ``match_finished``
    each, their trophies and fans handed out once, one gapless log, no card lost or doubled.
    ``recorded_before``: the matches already in ``seats_before`` (their fans counted there)."""
    round_one = list(Match.objects.filter(tournament_id=players[0].id, round=1))
    log = TournamentEvent.objects.filter(tournament_id=players[0].id)
    gained: dict[int, int] = {}
    decks: dict[int, list[int]] = {}
    for match in round_one:
        expected = replay(match)
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
        stored = [event.payload for event in MatchEvent.objects.filter(match=match).order_by("seq")]
        assert stored == expected.events, "exactly one set of match events"
        winner = side_seat(match, expected.winner)
        assert match.winner_id == winner.pk
        trophies = Trophy.objects.filter(tournament_id=players[0].id, park=match.park, round=1)
        assert [trophy.winner_id for trophy in trophies] == [winner.pk]
        assert log.filter(kind="match_finished", payload__match=match.pk).count() == 1
        streamed = [
            e.payload["event"]["seq"]
            for e in log.filter(kind="match_event", payload__match=match.pk)
        ]
        assert streamed and len(streamed) == len(set(streamed))
        for side in ("A", "B"):
            seat = side_seat(match, side)
            fans = 0 if match.pk in recorded_before else expected.fans_gained.get(side, 0)
            gained[seat.pk] = gained.get(seat.pk, 0) + fans
            decks[seat.pk] = list(expected.decks_after[side])
    for seat in Seat.objects.filter(tournament_id=players[0].id, pk__in=decks):
        tokens, _ = seats_before[seat.pk]
        assert seat.tokens == tokens + gained[seat.pk], "fans handed out once"
        if seat.kind == SeatKind.HUMAN:  # a bot may have drafted round 2 already
            assert seat.deck == decks[seat.pk]
    seqs = list(log.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), "one gapless event log, no duplicate"
    assert log.filter(kind="deck_phase_opened", payload__round=2).count() == 1
    current = tournament(players)
    assert card_locations(current) == all_uids(current), "no card lost or doubled"


def test_a_real_worker_plays_a_whole_round_and_opens_the_next_deck_phase(
    catalogue: Any, workers: Workers
) -> None:
    worker = workers.start()
    players = start_tournament(seats=4, humans=2, seed=41)
    draft_until_done(players)

    def next_round_open() -> bool:
        current = tournament(players)
        return current.round == 2 and current.status == Status.DECK

    wait_for(next_round_open, seconds=30, what="round 2's Deck Phase")
    matches = list(Match.objects.filter(tournament_id=players[0].id, round=1))
    assert matches and len(matches) == len(tournament(players).parks)
    for match in matches:
        assert match.status == MatchStatus.FINISHED and match.winner is not None
        assert match.events.exists()
        assert match_verify(match_id=match.pk), "the stored events replay exactly"
    trophies = Trophy.objects.filter(tournament_id=players[0].id, round=1)
    assert all(trophy.winner_id for trophy in trophies)
    # The worker process played the round's matches and both bots' drafts (one task each, or
    # one for both when the bots finished last); the test none.
    wait_for(
        lambda: worker.succeeded("tournaments.tasks.bot_deck_phases"),
        seconds=10,
        what="the worker to log the bots' drafts",
    )


@pytest.mark.parametrize(
    ("seats", "stall_at"),
    [
        (2, 1),  # one park: the round's only match
        (4, 2),  # two parks, one task: the first match has committed when the kill lands
    ],
)
def test_a_worker_killed_in_the_middle_of_a_round_is_replaced_and_each_match_is_recorded_once(
    catalogue: Any, workers: Workers, tmp_path: Path, seats: int, stall_at: int
) -> None:
    flag = tmp_path / "recording"
    short = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
    stall = {"SLOWDOWN_FLAG": str(flag), "SLOWDOWN_AT": str(stall_at)}
    first = workers.start(include=("tests.workers.slowdown",), env={**short, **stall})
    players = start_tournament(seats=seats, humans=2, seed=7)
    draft_until_done(players)

    stalled = int(wait_for(lambda: flag.exists() and flag.read_text(), seconds=30, what="a match"))
    seats_before = {
        seat.pk: (seat.tokens, list(seat.deck))
        for seat in Seat.objects.filter(tournament_id=players[0].id)
    }
    events_before = tournament(players).event_seq
    first.kill()  # inside the stalled match's transaction: nothing of it is recorded
    killed_at = time.monotonic()
    round_one = Match.objects.filter(tournament_id=players[0].id, round=1)
    assert round_one.count() == seats // 2 and round_one.filter(pk=stalled).exists()
    # Each match commits on its own: those the task played before the stalled one are recorded
    # (and released) for good, the stalled one and any after it are still scheduled.
    done = frozenset(m.pk for m in round_one if m.status == MatchStatus.FINISHED)
    assert done == {m.pk for m in round_one if m.pk < stalled} and len(done) == stall_at - 1
    assert all(m.status == MatchStatus.SCHEDULED for m in round_one if m.pk not in done)
    assert not MatchEvent.objects.filter(match__in=round_one.exclude(pk__in=done)).exists()
    assert tournament(players).event_seq == events_before

    # Redis hands an unacknowledged task back once it is older than the visibility timeout.
    time.sleep(max(0.0, killed_at + VISIBILITY_TIMEOUT - time.monotonic()))
    second = workers.start(env=short)
    wait_for(lambda: tournament(players).round == 2, seconds=30, what="the round to be recorded")

    # The task killed (the round's play_matches, or the bots' task that played the round after
    # closing the Deck Phase) came back to the second worker: the same message, not a new one.
    killed = {
        name: set(first.received(name)) - set(first.succeeded(name))
        for name in ("tournaments.tasks.play_matches", "tournaments.tasks.bot_deck_phases")
    }
    assert sum(len(ids) for ids in killed.values()) == 1
    wait_for(
        lambda: all(ids <= set(second.received(name)) for name, ids in killed.items()),
        seconds=10,
        what="the second worker to take the redelivered task",
    )
    check_round_one_recorded_once(players, seats_before, done)


def test_a_worker_killed_between_a_rounds_last_release_and_its_close_leaves_it_closed_once(
    catalogue: Any, workers: Workers, tmp_path: Path
) -> None:
    flag = tmp_path / "closing"
    short = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
    stall = {"SLOWDOWN_FLAG": str(flag), "SLOWDOWN_AT": "0", "SLOWDOWN_CLOSE": "1"}
    first = workers.start(include=("tests.workers.slowdown",), env={**short, **stall})
    players = start_tournament(seats=4, humans=2, seed=7)
    seats_before = {
        seat.pk: (seat.tokens, list(seat.deck))
        for seat in Seat.objects.filter(tournament_id=players[0].id)
    }
    draft_until_done(players)

    wait_for(lambda: flag.exists() and flag.read_text() == "close", seconds=30, what="a close")
    first.kill()  # the round's matches are released and committed; its close never began
    # Every match's events are out, as their own transactions committed them: the round is
    # still on, and the rows say its close is owed.
    round_one = Match.objects.filter(tournament_id=players[0].id, round=1)
    assert round_one.count() == 2
    assert all(match.status == MatchStatus.FINISHED for match in round_one)
    log = TournamentEvent.objects.filter(tournament_id=players[0].id)
    assert log.filter(kind="match_finished").count() == 2
    assert not log.filter(kind="round_finished").exists()
    assert (tournament(players).round, tournament(players).status) == (1, Status.MATCH)

    workers.start(env=short)  # the task redelivered, or the worker's clock: either closes it
    wait_for(lambda: tournament(players).round == 2, seconds=30, what="the round to close")
    check_round_one_recorded_once(players, seats_before)
    assert log.filter(kind="round_finished", payload__round=1).count() == 1


def test_a_host_and_three_bots_are_driven_to_a_champion_by_the_worker(
    catalogue: Any, workers: Workers
) -> None:
    worker = workers.start()
    (host,) = start_tournament(seats=4, humans=1, seed=2024)
    deadline = time.monotonic() + 90
    while (view := host.get())["status"] != "finished":
        assert time.monotonic() < deadline, f"the tournament did not end: {view}"
        if not host.act():  # the host drafts over REST; everything else is the worker's
            time.sleep(0.05)

    assert view["winners"]
    current = Tournament.objects.get(pk=host.id)
    final = Match.objects.get(tournament=current, round=8)
    assert view["winners"] == [final.winner.number]  # type: ignore[union-attr]
    played = Trophy.objects.filter(tournament=current, winner__isnull=False)
    assert played.count() == 7 * len(current.parks)
    assert card_locations(current) == all_uids(current)
    matches = Match.objects.filter(tournament=current).count()
    assert matches == 7 * len(current.parks) + 1
    # Each round's matches were played by one task: play_matches, or the bots' task that
    # closed the Deck Phase (never a task per match).
    assert not worker.succeeded("tournaments.tasks.play_match")
