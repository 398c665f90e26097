"""The hot statements of ``infra.rows`` read and write exactly what the ORM reads and writes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, models, transaction
from django.utils import timezone

from infra import rows
from matches.models import Match
from tests.tournaments.play import Player, play_to_the_end
from tournaments.models import DraftTurn, Seat, Tournament, Trophy
from tournaments.services.matchplay import _locked_match

pytestmark = pytest.mark.django_db(transaction=True)


def values(obj: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def game(catalogue: Any) -> Player:
    return play_to_the_end(seats=4, seed=5)


def test_a_locked_row_is_the_row_the_orm_reads(game: Player) -> None:
    tournament = Tournament.objects.get(pk=game.id)
    match = Match.objects.filter(tournament=tournament).exclude(answers=[]).first() or (
        Match.objects.filter(tournament=tournament).first()
    )
    assert match is not None
    with transaction.atomic():
        for model, pk in ((Tournament, tournament.pk), (Match, match.pk), (Seat, match.seat_a_id)):
            found = rows.locked(model, pk)
            assert found is not None and not found._state.adding
            assert values(found) == values(model.objects.get(pk=pk))
        assert rows.locked(Tournament, -1) is None


def test_the_locked_match_comes_with_both_seats_as_the_orm_reads_them(game: Player) -> None:
    tournament = Tournament.objects.get(pk=game.id)
    for match in Match.objects.filter(tournament=tournament).select_related("seat_a", "seat_b"):
        with transaction.atomic():
            found = _locked_match(tournament, match.pk)
        assert values(found) == values(match)
        assert values(found.seat_a) == values(match.seat_a)
        assert values(found.seat_b) == values(match.seat_b)


def test_saving_fields_writes_what_save_with_update_fields_writes(game: Player) -> None:
    ours, theirs = Seat.objects.filter(tournament_id=game.id).order_by("number")[:2]
    for seat in (ours, theirs):
        seat.deck = [*seat.deck, 999, 1000]
        seat.tokens += 3
        seat.lost_previous = not seat.lost_previous
    rows.save_fields(ours, ["deck", "tokens", "lost_previous"])
    theirs.save(update_fields=["deck", "tokens", "lost_previous"])
    for seat in (ours, theirs):
        stored = Seat.objects.get(pk=seat.pk)
        assert (stored.deck[-2:], stored.tokens, stored.lost_previous) == (
            [999, 1000],
            seat.tokens,
            seat.lost_previous,
        )


def test_saving_many_rows_writes_what_saving_each_writes(game: Player) -> None:
    seats = list(Seat.objects.filter(tournament_id=game.id).order_by("number"))
    turns = list(DraftTurn.objects.filter(seat__tournament_id=game.id).order_by("pk")[:3])
    for index, seat in enumerate(seats):
        seat.deck, seat.tokens = [*seat.deck, 900 + index], seat.tokens + index
        seat.auto_played = index % 2 == 0
    for index, turn in enumerate(turns):
        turn.state, turn.finished = {"step": index, "kept": [index, None]}, index == 1
    rows.save_many(seats, ["deck", "tokens", "auto_played"])
    rows.save_many(turns, ["state", "finished"])
    rows.save_many([], ["deck"])  # nothing to write: no statement
    for seat in seats:
        stored = Seat.objects.get(pk=seat.pk)
        assert (stored.deck, stored.tokens, stored.auto_played) == (
            seat.deck,
            seat.tokens,
            seat.auto_played,
        )
    for turn in turns:
        stored_turn = DraftTurn.objects.get(pk=turn.pk)
        assert (stored_turn.state, stored_turn.finished) == (turn.state, turn.finished)


def test_saving_fields_sets_an_auto_now_field_as_save_does(game: Player) -> None:
    tournament = Tournament.objects.get(pk=game.id)
    before = tournament.updated_at
    tournament.version += 1
    rows.save_fields(tournament, ["version", "updated_at"])
    stored = Tournament.objects.get(pk=game.id)
    assert stored.version == tournament.version
    assert stored.updated_at == tournament.updated_at > before


def test_a_json_null_and_a_date_round_trip(game: Player) -> None:
    match = Match.objects.filter(tournament_id=game.id).first()
    assert match is not None
    deadline = timezone.now() + timedelta(seconds=30)
    match.question, match.question_deadline = {"seq": 4, "keys": [1, "a"]}, deadline
    rows.save_fields(match, ["question", "question_deadline"])
    assert (Match.objects.get(pk=match.pk).question, match.question_deadline) == (
        {"seq": 4, "keys": [1, "a"]},
        deadline,
    )
    match.question, match.question_deadline = None, None
    rows.save_fields(match, ["question", "question_deadline"])
    stored = Match.objects.get(pk=match.pk)
    assert (stored.question, stored.question_deadline) == (None, None)


def test_an_update_where_changes_the_matching_rows_and_says_how_many(game: Player) -> None:
    trophy = Trophy.objects.filter(tournament_id=game.id, winner__isnull=False).first()
    assert trophy is not None and trophy.winner_id is not None
    seat = Seat.objects.filter(tournament_id=game.id).exclude(pk=trophy.winner_id).first()
    assert seat is not None
    where = {"tournament_id": game.id, "park": trophy.park, "round": trophy.round}
    assert rows.update_where(Trophy, where, winner_id=seat.pk, to_box=True) == 1
    stored = Trophy.objects.get(pk=trophy.pk)
    assert (stored.winner_id, stored.to_box) == (seat.pk, True)
    assert rows.update_where(Trophy, {**where, "round": 99}, winner_id=seat.pk, to_box=True) == 0


def test_rows_are_locked_only_where_the_database_locks_rows() -> None:
    clause = rows.lock_clause("m")
    assert clause == (" FOR UPDATE OF m" if connection.vendor == "postgresql" else "")
