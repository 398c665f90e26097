"""Each viewer's subscription frames are its own: a seat's private events, completed for that
seat first, never reach another seat or a spectator, whatever the selection."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.graphql.rest_shape import enum_value
from tests.graphql.socket import frames, open_socket, subscribe
from tests.graphql.test_subscriptions import last_seq, logged
from tests.ops.helpers import finished_bot_tournaments
from tournaments.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)

SELECTIONS = [
    "seq kind payload",
    "payload kind seq __typename",
    "... on TournamentEventView { seq payload } kind",
]


def seat_tokens(tournament_id: int, numbers: tuple[int, ...]) -> dict[int, str]:
    """A token for each of the bot seats ``numbers`` (the bench's way of watching as a bot)."""
    tokens = {}
    for number in numbers:
        token = f"watch-{tournament_id}-{number}"
        seat = Seat.objects.get(tournament_id=tournament_id, number=number)
        seat.token_hash = hashlib.sha256(token.encode()).hexdigest()
        seat.save(update_fields=["token_hash"])
        tokens[number] = token
    return tokens


async def watch(token: str | None, tournament_id: int, selection: str, final: int) -> list[Any]:
    socket = await open_socket(None if token is None else f"Bearer {token}")
    query = f"subscription($id: Int!) {{ tournamentEvents(tournamentId: $id) {{ {selection} }} }}"
    await subscribe(socket, query, {"id": tournament_id})
    got, _ = await frames(socket, final, "tournamentEvents")
    await socket.disconnect()
    return [{"seq": f["seq"], "kind": enum_value(f["kind"]), "payload": f["payload"]} for f in got]


async def test_a_seats_private_frames_reach_no_other_seat_nor_a_spectator(catalogue: Any) -> None:
    (tid,) = await database_sync_to_async(finished_bot_tournaments)(1, 3)
    tokens = await database_sync_to_async(seat_tokens)(tid, (0, 1))
    final = await database_sync_to_async(last_seq)(tid)
    for selection in SELECTIONS:
        await same_frames_as_the_stream(tid, tokens, selection, final)


async def same_frames_as_the_stream(
    tid: int, tokens: dict[int, str], selection: str, final: int
) -> None:
    first = await watch(tokens[0], tid, selection, final)  # seat 0's frames completed first
    second, spectator, again = await asyncio.gather(
        watch(tokens[1], tid, selection, final),
        watch(None, tid, selection, final),
        watch(tokens[0], tid, selection, final),
    )
    assert first == again == await database_sync_to_async(logged)(tid, 0)
    assert second == await database_sync_to_async(logged)(tid, 1)
    assert spectator == await database_sync_to_async(logged)(tid, None)
    private = {f["seq"] for f in first} - {f["seq"] for f in second if f["kind"] != "hidden"}
    assert private, "seat 0 has events of its own"
    for frames_of_another in (second, spectator):
        shown = {f["seq"]: f for f in frames_of_another}
        assert all(shown[seq]["kind"] == "hidden" for seq in private)
        assert all(shown[seq]["payload"] is None for seq in private)
