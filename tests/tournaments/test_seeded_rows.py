"""Seeded bot tournaments write the same rows as the code before batched match play did.

``seeded_rows.json`` holds, per table, a digest of every row the tournaments below left (no
ids, clocks, the join code or the commitment's random nonce), written by the per-match path (one
task per match) before matches were played a round at a time. The batched path must write the
same games: the same matches, events, log, seats, piles and trophies. Only the tournament's
and the seats' ``version`` (views' staleness keys, moved by commits) are left out, since fewer
commits move them fewer times.

Regenerate (only for a deliberate change of what a game writes):
``SEEDED_ROWS_WRITE=1 pytest tests/tournaments/test_seeded_rows.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from matches.models import Match
from tournaments.models import Seat, SeatKind, Tournament
from tournaments.services.lobby import seat_add_bots, tournament_create
from tournaments.services.start import tournament_start

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from written_rows import written_rows  # one home with bench_writes --dump

pytestmark = pytest.mark.django_db(transaction=True)

FIXTURE = Path(__file__).with_name("seeded_rows.json")
TOURNAMENTS = [(4, 100), (8, 300), (3, 7)]  # (seats, seed): two parks, four, the Robot


def play_bots(seats: int, seed: int) -> None:
    """A lobby of bots only (the host turned bot), started: the tasks play it to the end."""
    ticket = tournament_create(host_name="Host", seat_count=seats, seed=seed)
    seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=seats - 1)
    Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
    tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)


def match_numbers() -> dict[int, int]:
    """Each match's place in (seed, round, park) order: a payload names a match by its id,
    which the database's sequence hands out (PostgreSQL's outlives a flushed test)."""
    ordered = Match.objects.order_by("tournament__seed", "round", "park")
    return {pk: number for number, pk in enumerate(ordered.values_list("pk", flat=True))}


def numbered(value: Any, numbers: dict[int, int]) -> Any:
    """``value`` with every match id in it (a ``match`` or a nested ``id``) by its place."""
    if isinstance(value, list):
        return [numbered(item, numbers) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: numbers.get(item, item) if key in ("match", "id") else numbered(item, numbers)
        for key, item in value.items()
    }


def digests() -> dict[str, dict[str, Any]]:
    """Per table: how many rows and a SHA-256 of them all, in a stable order."""
    numbers = match_numbers()

    def renumbered(row: dict[str, Any]) -> dict[str, Any]:
        if isinstance(row.get("payload"), dict):
            return {**row, "payload": numbered(row["payload"], numbers)}
        return row

    # ``spectator_chat`` and ``title`` are newer than the fixture: an option chosen at create and
    # a name an organizer gives, not game writes.
    tournament_columns = frozenset({"version", "code", "spectator_chat", "title"})
    # A seat's ``version`` moves at each committed change of phase: a bot tournament's round
    # close now commits with the next Deck Phase's bots, so once per round where it was twice.
    # A match's ``events_stored`` is newer than the fixture: it counts the rows of its events,
    # which ``match_events`` holds. A seat's ``reclaimed_round`` is newer too: a bot tournament
    # has no seat taken back (null in every row).
    dropped = {
        "tournaments": tournament_columns,
        "seats": frozenset({"version", "reclaimed_round"}),
        "matches": frozenset({"events_stored"}),
    }
    tables = written_rows(drop=dropped, then=renumbered)
    return {
        name: {
            "rows": len(found),
            "sha256": hashlib.sha256(
                json.dumps(found, sort_keys=True, default=str).encode()
            ).hexdigest(),
        }
        for name, found in tables.items()
    }


def test_seeded_bot_tournaments_write_the_rows_the_per_match_path_wrote(catalogue: Any) -> None:
    for seats, seed in TOURNAMENTS:
        play_bots(seats, seed)
    assert Tournament.objects.filter(status="finished").count() == len(TOURNAMENTS)
    found = digests()
    if os.environ.get("SEEDED_ROWS_WRITE"):
        FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    assert found == json.loads(FIXTURE.read_text())
