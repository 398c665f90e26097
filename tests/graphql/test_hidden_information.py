"""GraphQL shows nobody what REST hides: a query selecting every field, sent as a spectator,
as another seat and as the seat itself, answers exactly REST's JSON for the same viewer, at
states taken all along a tournament (lobby, Deck Phases, matches, the end)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.graphql.client import TOURNAMENT_FIELDS, GraphQL, Seat
from tests.graphql.rest_shape import rest_json, rest_shape
from tests.tournaments.play import ROUND_GUARD, open_game

pytestmark = pytest.mark.django_db(transaction=True)

MATCH_FIELDS = """
  databaseId tournament round park kind status winner reason fansGained eventsReleased
  seats { number name side }
  question { seq kind card cardKey options optionKeys min max prompt default deadline }
"""
EVENTS = "events(first: 500) { edges { node { seq kind payload } } }"


def headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def same_tournament_view(tid: int, token: str | None) -> None:
    rest = APIClient().get(f"/api/v1/tournaments/{tid}/", headers=headers(token)).json()
    query = f"query($id: Int!) {{ tournament(id: $id) {{ {TOURNAMENT_FIELDS} }} }}"
    found = GraphQL(f"Bearer {token}" if token else None).data(query, id=tid)["tournament"]
    assert rest_shape(found) == rest_json(rest)


def same_match_views(match_id: int, token: str | None) -> None:
    client = APIClient()
    view = client.get(f"/api/v1/matches/{match_id}/", headers=headers(token)).json()
    events = client.get(f"/api/v1/matches/{match_id}/events/", headers=headers(token)).json()
    query = f"query($id: Int!) {{ match(id: $id) {{ {MATCH_FIELDS} {EVENTS} }} }}"
    found = GraphQL(f"Bearer {token}" if token else None).data(query, id=match_id)["match"]
    assert rest_shape(found.pop("events")) == rest_json(events)
    assert rest_shape(found) == rest_json(view)


def test_every_viewer_sees_through_graphql_exactly_what_rest_shows_it(catalogue: Any) -> None:
    players = open_game(seats=3, humans=2, seed=11)
    other = open_game(seats=1, humans=1, start=False)[0]
    tid = players[0].id
    seats = [Seat(tid, player.token) for player in players]
    viewers = [None, players[0].token, players[1].token, other.token]
    chance = random.Random(11)
    compared = 0
    for _ in range(ROUND_GUARD):
        finished = players[0].get()["status"] == "finished"
        if finished or chance.random() < 0.12:
            for token in viewers:
                same_tournament_view(tid, token)
            compared += 1
        if finished:
            break
        if not any(seat.step() for seat in seats):
            raise AssertionError("stuck")
    assert compared >= 5
    matches = list(Match.objects.filter(tournament_id=tid).values_list("pk", flat=True))
    assert len(matches) >= 7
    for match_id in chance.sample(matches, 4):
        for token in viewers:
            same_match_views(match_id, token)


def test_a_spectator_sees_no_room_code_nor_anyones_turn(catalogue: Any) -> None:
    players = open_game(seats=2, seed=3)
    query = f"query($id: Int!) {{ tournament(id: $id) {{ {TOURNAMENT_FIELDS} }} }}"
    found = GraphQL().data(query, id=players[0].id)["tournament"]
    assert found["roomCode"] is None
    assert found["you"] is None
    assert found["fairness"]["revealedSeed"] is None
