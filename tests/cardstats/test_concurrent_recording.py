"""Recorders working at the same instant on PostgreSQL: the card statistics rows they share are
locked in one order (no deadlock) and no count is lost (incremental == recount)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, connections

from matches.models import Match, MatchStatus
from tournaments.models import CardStat, Seat, SeatKind, Status, Tournament
from tournaments.services.cardstats import card_stats_recount
from tournaments.services.lobby import seat_add_bots, tournament_create
from tournaments.services.start import tournament_start

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
    ),
]

RECORDERS = 4
FIELDS = (
    *("key", "sets", "player", "offered", "picked", "decks", "deck_wins"),
    *("reveals", "power_total", "power_count", "effects"),
)


def bot_tournament(seed: int) -> tuple[int, Any]:
    """A lobby of bots only (the host's seat turned into one), ready to start."""
    ticket = tournament_create(host_name="Host", seat_count=3, seed=seed)
    seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=2)
    Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
    return ticket.tournament.pk, ticket.seat


def play_together(lobbies: list[tuple[int, Any]]) -> list[BaseException]:
    """Start every tournament at the same instant, one thread each: each plays to its end
    there (tasks run in process), recording its matches while the others record theirs."""
    barrier = threading.Barrier(len(lobbies))
    errors: list[BaseException] = []

    def play(tournament_id: int, seat: Any) -> None:
        try:
            barrier.wait()
            tournament_start(tournament_id=tournament_id, seat=seat)
        except BaseException as error:  # reported to the test below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=lobby) for lobby in lobbies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    return errors


def test_concurrent_recorders_neither_deadlock_nor_lose_counts(catalogue: Any) -> None:
    lobbies = [bot_tournament(seed=40 + number) for number in range(RECORDERS)]
    assert play_together(lobbies) == []
    assert set(Tournament.objects.values_list("status", flat=True)) == {Status.FINISHED}
    assert not Match.objects.filter(status=MatchStatus.FAILED).exists()  # none deadlocked
    kept = sorted(CardStat.objects.values_list(*FIELDS))
    assert kept
    card_stats_recount()
    assert sorted(CardStat.objects.values_list(*FIELDS)) == kept
