"""The lobby and seat services on the real database, below any transport."""

from __future__ import annotations

from typing import Any

import pytest

from infra.errors import ApplicationError
from tests.factories import BotFactory, SeatFactory, TournamentFactory
from tournaments.models import Seat, Tournament
from tournaments.rules.seeds import commitment
from tournaments.services import lobby, start
from tournaments.services.common import require_version

pytestmark = pytest.mark.django_db


def test_a_joining_player_takes_the_lowest_open_seat() -> None:
    tournament = TournamentFactory.create(seat_count=4)
    SeatFactory.create(tournament=tournament, number=0)
    BotFactory.create(tournament=tournament, number=2)
    ticket = lobby.seat_join(code=tournament.code, name="Cleo")
    assert ticket.seat.number == 1 and ticket.token


def test_a_name_already_at_the_table_is_refused_and_nothing_changes() -> None:
    tournament = TournamentFactory.create()
    SeatFactory.create(tournament=tournament, number=0, name="Ann")
    with pytest.raises(ApplicationError) as refused:
        lobby.seat_join(code=tournament.code, name="ann")
    assert refused.value.code == "name_taken"
    assert Seat.objects.filter(tournament=tournament).count() == 1
    assert Tournament.objects.get(pk=tournament.pk).event_seq == 0


def test_only_the_host_adds_bots() -> None:
    tournament = TournamentFactory.create(seat_count=3)
    SeatFactory.create(tournament=tournament, number=0)
    guest = SeatFactory.create(tournament=tournament, number=1)
    with pytest.raises(ApplicationError) as refused:
        lobby.seat_add_bots(tournament_id=tournament.pk, seat=guest, count=1)
    assert refused.value.code == "host_only"


def test_a_new_lobby_commits_to_a_seed_it_does_not_show(settings: Any) -> None:
    settings.TRUST_HOST_SEED = False
    ticket = lobby.tournament_create(host_name="Ann", seat_count=2, seed=424242)
    tournament = ticket.tournament
    assert tournament.seed != 424242
    assert tournament.commitment == commitment(tournament.seed, tournament.seed_nonce)


def test_starting_moves_every_seats_version_and_freezes_the_cards(catalogue: Any) -> None:
    ticket = lobby.tournament_create(host_name="Ann", seat_count=2, seed=3)
    lobby.seat_add_bots(tournament_id=ticket.tournament.pk, seat=ticket.seat, count=1)
    before = {seat.pk: seat.version for seat in Seat.objects.all()}
    start.tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    host = Seat.objects.get(pk=ticket.seat.pk)
    assert host.version > before[host.pk]
    assert Tournament.objects.get(pk=ticket.tournament.pk).snapshot_id is not None
    with pytest.raises(ApplicationError) as stale:
        require_version(host, before[host.pk])
    assert stale.value.code == "stale"
    require_version(host, host.version)
