"""No hint of what is still hidden: bounds, counts and uids tell only what is already public.

While a round's paced match events are stored but not yet out, nothing a spectator can read —
an error, a count, a match view — names how many events are stored; and a card's uid never says
where the card started (starter decks included), yet a seed deals the same uids every time.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from apikit.shapes import to_json
from matches.models import Match, MatchStatus
from matches.observer import SPECTATOR
from server.asgi import application
from tests.graphql.client import GraphQL
from tests.graphql.socket import open_socket, subscribe
from tests.tournaments.play import Player, all_uids, open_game
from tournaments.models import Pile, Seat, SeatKind, Tournament
from tournaments.selectors.events import events_after, released_seq

pytestmark = pytest.mark.django_db(transaction=True)

SUBSCRIPTION = """subscription($id: Int!, $after: Int!) {
  tournamentEvents(tournamentId: $id, after: $after) { seq kind payload }
}"""
GQL = """query($id: Int!) {
  tournament(id: $id) { __typename ... on TournamentView { version status round } }
  matches(tournamentId: $id) { edges { node { id status eventsReleased } } }
}"""


def _held(settings: Any) -> tuple[Player, int, int]:
    """A game whose first round's matches are recorded, their paced events stored, none out:
    the host, the stored count and the last released seq."""
    settings.MATCH_EVENT_PACE_SECONDS = 30
    (host,) = open_game(seats=4, seed=8)
    while host.get()["status"] == "deck":
        assert host.act()
    recorded = Match.objects.filter(tournament_id=host.id, status=MatchStatus.RECORDED)
    assert recorded.count() == 2
    stored = Tournament.objects.get(pk=host.id).event_seq
    released = released_seq(host.id)
    assert stored > released + 50, "the paced events are stored, not out"
    return host, stored, released


def _numbers(text: str) -> set[int]:
    return {int(found) for found in re.findall(r"\d+", text)}


async def test_the_after_error_names_only_the_last_released_event(
    catalogue: Any, settings: Any
) -> None:
    host, stored, released = await database_sync_to_async(_held)(settings)
    for after in (stored, released + 1, 2**31 - 1):
        stream = WebsocketCommunicator(application, f"/ws/tournaments/{host.id}/?after={after}")
        assert (await stream.connect(timeout=5))[0]
        frame = await stream.receive_json_from(timeout=5)
        await stream.disconnect()
        assert frame["code"] == "invalid" and str(released) in frame["message"], frame
        assert stored not in _numbers(frame["message"]), frame
        socket = await open_socket()
        await subscribe(socket, SUBSCRIPTION, {"id": host.id, "after": after})
        message = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        text = orjson.dumps(message["payload"]).decode()
        assert "invalid" in text and f"({released})" in text, message
        assert stored not in _numbers(text), message
    accepted = WebsocketCommunicator(application, f"/ws/tournaments/{host.id}/?after={released}")
    assert (await accepted.connect(timeout=5))[0]
    assert await accepted.receive_nothing(timeout=0.5), "nothing more is out yet"
    await accepted.disconnect()


def test_no_public_answer_names_the_stored_count_or_a_match_length(
    catalogue: Any, settings: Any
) -> None:
    host, stored, released = _held(settings)
    lengths = {
        count
        for counts in Match.objects.filter(tournament_id=host.id).values_list(
            "event_counts", flat=True
        )
        for count in counts.values()
    }
    hidden = {stored, stored - released, *lengths}
    shown = [
        host.client.get(f"/api/v1/tournaments/{host.id}/").json(),
        host.client.get(f"/api/v1/tournaments/{host.id}/matches/").json(),
        GraphQL().data(GQL, id=host.id),
        to_json(events_after(tournament_id=host.id, after=0, viewer=SPECTATOR).events),
    ]
    for match in shown[1]:
        shown.append(host.client.get(f"/api/v1/matches/{match['id']}/").json())
        shown.append(host.client.get(f"/api/v1/matches/{match['id']}/events/").json())
    for answer in shown:
        for key, value in _counts(answer):
            assert value not in hidden or value <= released, (key, value, hidden)


COUNT_KEYS = {"seq", "events_released", "eventsReleased", "count", "total", "last_seq"}


def _counts(answer: Any, key: str = "") -> list[tuple[str, int]]:
    """Every ``(key, number)`` of an answer whose key names a count, a bound or a seq."""
    if isinstance(answer, dict):
        return [found for k, v in answer.items() for found in _counts(v, k)]
    if isinstance(answer, list):
        return [found for item in answer for found in _counts(item, key)]
    if isinstance(answer, int) and not isinstance(answer, bool) and key in COUNT_KEYS:
        return [(key, answer)]
    return []


def _dealt(seed: int) -> tuple[int, dict[int, list[int]], dict[str, list[int]]]:
    (host,) = open_game(seats=4, seed=seed)
    decks = {
        seat.number: sorted(seat.deck)
        for seat in Seat.objects.filter(tournament_id=host.id).exclude(kind=SeatKind.ROBOT)
    }
    piles = {p.level: p.cards for p in Pile.objects.filter(tournament_id=host.id)}
    tournament = Tournament.objects.get(pk=host.id)
    assert all_uids(tournament) == list(range(1, len(all_uids(tournament)) + 1))
    return tournament.seed, decks, piles


def test_every_uid_is_drawn_at_random_from_the_tournaments_seed(catalogue: Any) -> None:
    seed, decks, piles = _dealt(31)
    again_seed, again_decks, again_piles = _dealt(31)
    assert (seed, decks, piles) == (again_seed, again_decks, again_piles), "a seed deals alike"
    _, other_decks, _ = _dealt(32)
    assert decks != other_decks, "another seed, other uids"
    for dealt in (decks, other_decks):
        for number, deck in dealt.items():
            block = list(range(deck[0], deck[0] + len(deck)))
            assert deck != block, f"seat {number}'s starter uids are a run: {deck}"
            assert deck != list(range(6 * number + 1, 6 * number + 7))
