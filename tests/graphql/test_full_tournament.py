"""A whole tournament played through GraphQL mutations only: one human seat, bots."""

from __future__ import annotations

from typing import Any

import pytest

from tests.graphql.client import GraphQL, Seat, create
from tests.tournaments.test_full_tournaments import check_accounting
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tournament_is_played_to_its_champion_through_graphql_alone(catalogue: Any) -> None:
    ticket = create(GraphQL(), seats=3, seed="7")
    seat = Seat(ticket["id"], ticket["token"])
    seat.act("seatSettings", answersLive=False)
    seat.act("addBots", count=2)
    started = seat.act("startTournament")
    assert started["status"] == "DECK"
    view = seat.play_to_the_end()
    assert view["winners"]
    assert sorted(view["finalists"]) and len(view["finalists"]) == 2
    check_accounting(Tournament.objects.get(pk=ticket["id"]))
