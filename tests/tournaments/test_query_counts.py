"""Every read endpoint sends a fixed number of SQL statements, however many matches, seats or
events there are (no query per row): the counts are pinned here."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from matches.models import Match
from tests.tournaments.play import Player, open_game, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(catalogue: Any) -> Player:
    """A finished 4-seat tournament: one human (the host), three bots, 15 matches."""
    return play_to_the_end(seats=4, seed=11)


READS = [
    # (path, queries as a spectator, as the seat: its token is one lookup more)
    ("/api/v1/tournaments/", 2, 3),
    ("/api/v1/tournaments/?status=finished&limit=5", 2, 3),
    ("/api/v1/tournaments/{t}/", 1, 2),
    ("/api/v1/tournaments/{t}/matches/", 1, 2),
    ("/api/v1/matches/{m}/", 1, 2),
    ("/api/v1/matches/{m}/events/", 1, 2),  # a finished match: its frames cached per side
    ("/api/v1/cards/", 0, 1),
    ("/api/v1/cards/?set=Castle", 0, 1),
    ("/api/v1/card-sets/", 0, 1),
]


@pytest.mark.parametrize(("path", "spectator", "seat"), READS)
def test_a_read_sends_a_fixed_number_of_queries(
    finished: Player, django_assert_num_queries: Any, path: str, spectator: int, seat: int
) -> None:
    match = Match.objects.filter(tournament_id=finished.id).order_by("pk").last()
    assert match is not None and Match.objects.filter(tournament_id=finished.id).count() == 15
    url = path.format(t=finished.id, m=match.pk)
    client = APIClient()
    for headers, expected in (({}, spectator), (finished.headers, seat)):
        client.get(url, headers=headers)  # warm the per-tournament caches
        with django_assert_num_queries(expected):
            assert client.get(url, headers=headers).status_code == 200


def test_the_match_list_counts_every_match_being_released_in_one_query(
    finished: Player, django_assert_num_queries: Any
) -> None:
    """While matches are released event by event, their visible counts come from one grouped
    query, not one per match."""
    matches = Match.objects.filter(tournament_id=finished.id).order_by("pk")
    releasing = list(matches[:5])
    for match in releasing:
        match.status = "recorded"
        match.save(update_fields=["status"])
        match.events.filter(seq__gte=10).update(visible_at=timezone.now() + timedelta(hours=1))
    url = f"/api/v1/tournaments/{finished.id}/matches/"
    client = APIClient()
    client.get(url)
    with django_assert_num_queries(3):
        listed = client.get(url).json()
    counts = [m["events_released"] for m in listed[:5]]
    assert all(0 < count <= 10 for count in counts), counts
    assert [m["status"] for m in listed[:5]] == ["playing"] * 5


def test_playing_and_releasing_a_match_sends_a_fixed_number_of_statements(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    """The write path's statements are pinned too: a match played, recorded and released (not
    the round's last) is 7 statements through Django — the tournament's lock, the match's (which
    also reads whether the round's other matches are finished: no check of its own), the match
    saved finished, the cards' statistics (one appended delta), both seats (one
    ``UPDATE … FROM VALUES``), the trophy, the tournament's counter — in one transaction (its
    ``BEGIN`` and ``COMMIT`` are counted), plus the two ``COPY``s of its events (to the match
    and to the log), which go around Django's cursor wrapper on PostgreSQL (on SQLite they are
    two bulk inserts).
    The fold of the statistics is a task of its own, queued on commit."""
    from django.db import connection

    from tournaments.services import cardstats, matchplay, rounds

    monkeypatch.setattr(rounds, "_queue_matches", lambda *_: None)  # the matches wait
    # The card statistics' fold is a task of its own, queued on commit: not this transaction's.
    monkeypatch.setattr(cardstats, "enqueue_named", lambda *_: True)
    (host,) = open_game(seats=4, seed=11)
    while host.get()["status"] == "deck":
        assert host.act()
    first = Match.objects.filter(tournament_id=host.id).order_by("pk").first()
    assert first is not None and Match.objects.filter(tournament_id=host.id).count() == 2
    inserts = 0 if connection.vendor == "postgresql" else 2
    with django_assert_num_queries(7 + 2 + inserts):  # + BEGIN and COMMIT
        matchplay.match_play(match_id=first.pk, tournament_id=host.id)
    first.refresh_from_db()
    assert first.status == "finished" and first.events.exists()


def test_a_pick_resolves_the_caller_once_and_reads_the_seat_row_no_more_than_needed(
    catalogue: Any,
) -> None:
    """A Deck Phase pick: the token looked up once (the action and the view that answers it
    share it), the seat row read once under the lock (version, dropped, deck together), and the
    view's read of the tournament with the seat, and of every seat, after the commit."""
    (host,) = open_game(seats=2, humans=1, seed=3)
    card = host.post("draft/draw")["you"]["turn"]["display"][0]["uid"]
    with CaptureQueriesContext(connection) as captured:
        host.post("draft/pick", {"card": card})
    seat_reads = [
        q["sql"]
        for q in captured.captured_queries
        if re.match(r'SELECT .* FROM "tournaments_seat"', q["sql"])
    ]
    token_lookups = [sql for sql in seat_reads if '"token_hash" =' in sql]
    assert len(token_lookups) == 1
    assert len(seat_reads) == 4, seat_reads  # the token, under the lock, the view's two
    assert len(captured.captured_queries) <= 16  # 16 on PostgreSQL (the view's released cursor)


def _bot_task_statements(seats: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """The statements of one task playing every bot's Deck Phase of round 1 (the host, a
    person, has not finished: the phase stays open)."""
    from tournaments.models import DraftTurn, Seat, SeatKind, Tournament
    from tournaments.selectors.cards import current_keys
    from tournaments.services import cardstats, deck, rounds

    monkeypatch.setattr(rounds, "enqueue_named", lambda *_, **__: True)  # the bots wait
    monkeypatch.setattr(cardstats, "enqueue_named", lambda *_: True)  # the fold: a task of its own
    monkeypatch.setattr(deck, "BOTS_CPU_SECONDS", 60.0)  # every bot in this one task
    (host,) = open_game(seats=seats, seed=12)
    bots = list(
        Seat.objects.filter(tournament_id=host.id, kind=SeatKind.BOT).values_list("pk", flat=True)
    )
    # Which frozen cards were renamed since is read once per process and catalogue version
    # (cached): read here, so the count is the task's own.
    current_keys(Tournament.objects.get(pk=host.id).snapshot_id)
    with CaptureQueriesContext(connection) as queries:
        deck.bot_deck_phases(tournament_id=host.id, seat_ids=bots)
    assert DraftTurn.objects.filter(seat_id__in=bots, finished=True).count() == len(bots)
    sent = [q["sql"] for q in queries.captured_queries]
    return len([sql for sql in sent if not sql.startswith(("BEGIN", "COMMIT", "SAVEPOINT"))])


def test_a_bot_task_sends_as_many_statements_for_five_bots_as_for_two(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bots' Deck Phases read their turns, the seats and the piles once and write each
    table once, whatever the number of bots: the tournament's lock, the seats, every turn of
    the phase (which tell whether it is done: no check of its own), the piles, the turns, seats
    and piles written, the cards' statistics and the tournament's counter (plus the progress
    events' ``COPY``, or a bulk insert on SQLite)."""
    inserts = 0 if connection.vendor == "postgresql" else 1
    assert _bot_task_statements(3, monkeypatch) == 9 + inserts
    assert _bot_task_statements(6, monkeypatch) == 9 + inserts


def test_a_rounds_close_after_its_last_release_asks_nothing_of_its_matches(
    catalogue: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close that commits after the round's last release names the round, and the release
    read (under the lock) that no other match of it is unfinished: the close sends no query of
    the matches, only the lock, the seats and trophies it scores, and the next Deck Phase's
    writes."""
    from tournaments.services import matchplay, rounds

    monkeypatch.setattr(rounds, "_queue_matches", lambda *_: None)  # the match waits
    closes: list[dict[str, int]] = []
    monkeypatch.setattr(matchplay, "round_close", lambda **kwargs: closes.append(kwargs))
    (host, guest) = open_game(seats=2, humans=2, seed=5)
    for player in (host, guest):
        while player.act():  # every pick of its Deck Phase
            pass
    match = Match.objects.get(tournament_id=host.id)
    matchplay.matches_play(tournament_id=host.id, match_ids=[match.pk])
    assert closes == [{"tournament_id": host.id, "round_number": 1}]
    with CaptureQueriesContext(connection) as captured:
        rounds.round_close(tournament_id=host.id, round_number=1)
    assert host.get()["round"] == 2
    sql = [q["sql"] for q in captured.captured_queries]
    assert not [s for s in sql if re.search(r'FROM "matches_match"', s)], sql
