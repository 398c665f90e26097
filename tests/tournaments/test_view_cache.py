"""The tournament view is cached per version and viewer: a cached projection is always the
fresh one, and never another viewer's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from apikit.shapes import Shape, to_json
from matches.models import Match
from matches.observer import SPECTATOR, Viewer
from matches.selectors import _frames
from tests.tournaments.play import ROUND_GUARD, open_game
from tournaments.models import Seat, Tournament
from tournaments.selectors.tournaments import tournament_view
from tournaments.selectors.viewers import hash_token

pytestmark = pytest.mark.django_db(transaction=True)


def rendered(view: Shape) -> Any:
    """A projection as the API renders it (dates as strings)."""
    return json.loads(JSONRenderer().render(to_json(view)))


def test_every_viewer_always_gets_its_own_fresh_projection(catalogue: Any) -> None:
    """Two humans and two bots to the end; at every step each viewer — either seat, a
    spectator, another tournament's seat — reads in a random order, twice: both answers equal
    the projection computed afresh for that viewer."""
    players = open_game(seats=4, humans=2, seed=33)
    (stranger,) = open_game(seats=2, seed=34, start=False)
    seats = [Seat.objects.get(tournament_id=players[0].id, number=n) for n in (0, 1)]
    viewers = [
        (players[0].headers, seats[0].pk),
        (players[1].headers, seats[1].pk),
        ({}, None),
        (stranger.headers, None),  # a spectator here
    ]
    rng = random.Random(7)
    client = APIClient()
    url = f"/api/v1/tournaments/{players[0].id}/"
    for _ in range(ROUND_GUARD):
        tournament = Tournament.objects.get(pk=players[0].id)
        for headers, seat_pk in rng.sample(viewers, len(viewers)):
            seat = None if seat_pk is None else Seat.objects.get(pk=seat_pk)
            expected = rendered(tournament_view(tournament, seat))
            assert client.get(url, headers=headers).json() == expected
            assert client.get(url, headers=headers).json() == expected
        if tournament.status == "finished":
            return
        assert any(player.act() for player in rng.sample(players, 2)), "stuck"
    raise AssertionError("the tournament did not end")


def test_a_finished_matchs_events_are_cached_per_side_and_never_served_to_another(
    catalogue: Any,
) -> None:
    """Both seats of a match, a seat of another match and a spectator read a finished match's
    events in random orders, from the start and after random numbers, twice: each answer equals
    the frames computed afresh for that viewer (a seat sees its own questions and looks, the
    others see them hidden)."""
    players = open_game(seats=4, humans=4, seed=41)
    rng = random.Random(11)
    for _ in range(ROUND_GUARD):
        if Match.objects.filter(tournament_id=players[0].id, status="finished").count() >= 2:
            break
        assert any(player.act() for player in rng.sample(players, 4)), "stuck"
    match = Match.objects.filter(tournament_id=players[0].id, status="finished").first()
    assert match is not None
    seats = {p.token: Seat.objects.get(token_hash=hash_token(p.token)) for p in players}
    viewers: list[tuple[dict[str, str], Seat | None]] = [
        (p.headers, seats[p.token]) for p in players
    ]
    viewers.append(({}, None))
    sides = {
        (SPECTATOR if seat is None else Viewer(seat.pk, seat.number)).side_in(match)
        for _, seat in viewers
    }
    assert sides == {"A", "B", None}  # both seats of the match, and others who see as spectators
    client = APIClient()
    for _ in range(3):
        for headers, seat in rng.sample(viewers, len(viewers)):
            after = rng.choice([0, 0, 1, 5, 40, 10_000])
            side = (SPECTATOR if seat is None else Viewer(seat.pk, seat.number)).side_in(match)
            expected = to_json(_frames(match, side, after))
            url = f"/api/v1/matches/{match.pk}/events/?after={after}"
            assert client.get(url, headers=headers).json() == expected
            assert client.get(url, headers=headers).json() == expected
