"""The table chat in GraphQL: the same actions as REST (post, join as a spectator, mute,
settings) as mutations with typed errors, the log as a connection, and the messages over
``tournamentEvents`` as ``chat`` events."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from tests.graphql.client import ERRORS, GraphQL, Seat, create, payload
from tests.graphql.socket import frames, open_socket, subscribe
from tournaments.models import ChatGuest, TournamentEvent
from tournaments.services.chat import CHAT_MAX_CHARS

pytestmark = pytest.mark.django_db

MESSAGE = f"message {{ seq seat spectator name text }} {ERRORS}"
TICKET = f"ticket {{ number name token }} {ERRORS}"
SETTINGS = f"tournament {{ options {{ spectatorChat }} }} {ERRORS}"
CHAT = """query($id: Int!, $first: Int!, $after: String) {
  tournamentChat(tournamentId: $id, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { seq seat spectator name text } }
  }
}"""


def opened(spectator_chat: bool = True) -> Seat:
    ticket = create(GraphQL(), seats=2, spectatorChat=spectator_chat)
    return Seat(ticket["id"], ticket["token"])


def post(gql: GraphQL, tournament_id: int, text: str) -> dict[str, Any]:
    return payload(gql, "postChat", MESSAGE, tournamentId=tournament_id, text=text)


def codes(result: dict[str, Any]) -> list[str]:
    return [error["code"] for error in result["errors"]]


def join(tournament_id: int, name: str) -> tuple[GraphQL, dict[str, Any]]:
    result = payload(GraphQL(), "joinChat", TICKET, tournamentId=tournament_id, name=name)
    ticket = result["ticket"]
    return GraphQL(f"Bearer {ticket['token']}" if ticket else None), result


def test_a_seat_and_a_spectator_post_and_the_log_pages_as_a_connection() -> None:
    host = opened()
    said = post(host.gql, host.id, "hello <b>all</b>")
    assert said["errors"] == []
    assert said["message"] == {
        "seq": said["message"]["seq"],
        "seat": 0,
        "spectator": None,
        "name": "Host",
        "text": "hello <b>all</b>",
    }
    ann, joined = join(host.id, "Ann")
    assert joined["errors"] == [] and joined["ticket"]["number"] == 1
    assert post(ann, host.id, "go host")["message"]["spectator"] == 1
    first = GraphQL().data(CHAT, id=host.id, first=1)["tournamentChat"]
    assert first["totalCount"] == 2 and first["pageInfo"]["hasNextPage"] is True
    assert [edge["node"]["name"] for edge in first["edges"]] == ["Host"]
    after = first["pageInfo"]["endCursor"]
    rest = GraphQL().data(CHAT, id=host.id, first=5, after=after)["tournamentChat"]
    assert [(e["node"]["seat"], e["node"]["text"]) for e in rest["edges"]] == [(None, "go host")]


def test_refusals_are_typed_errors_with_rests_codes_and_change_nothing() -> None:
    host = opened(spectator_chat=False)
    assert codes(post(GraphQL(), host.id, "hi")) == ["chat_closed"]
    _nobody, refused = join(host.id, "Ann")
    assert refused["ticket"] is None and codes(refused) == ["chat_closed"]
    assert codes(post(host.gql, host.id, "x" * (CHAT_MAX_CHARS + 1))) == ["chat_too_long"]
    spectator = GraphQL()
    opened_up = payload(
        spectator, "chatSettings", SETTINGS, tournamentId=host.id, spectatorChat=True
    )
    assert codes(opened_up) == ["host_only"]
    assert not ChatGuest.objects.exists()
    assert not TournamentEvent.objects.filter(kind__startswith="chat").exists()


def test_the_host_opens_the_chat_to_spectators_and_mutes_one() -> None:
    host = opened(spectator_chat=False)
    view = payload(host.gql, "chatSettings", SETTINGS, tournamentId=host.id, spectatorChat=True)
    assert view["tournament"]["options"]["spectatorChat"] is True
    ann, _ = join(host.id, "Ann")
    assert codes(join(host.id, "ann")[1]) == ["name_taken"]
    assert codes(join(host.id, "")[1]) == ["chat_bad_name"]
    host.act("muteChat", spectator=1, muted=True)
    assert codes(post(ann, host.id, "spam")) == ["chat_muted"]
    host.act("muteChat", spectator=1, muted=False)
    assert post(ann, host.id, "sorry")["errors"] == []


@pytest.mark.django_db(transaction=True)
async def test_chat_messages_come_over_the_subscription_as_on_the_rest_stream() -> None:
    def two_messages() -> tuple[int, int]:
        host = opened()
        ann, _ = join(host.id, "Ann")
        post(host.gql, host.id, "welcome")
        return host.id, post(ann, host.id, "thanks")["message"]["seq"]

    tournament_id, last = await database_sync_to_async(two_messages)()
    socket = await open_socket()
    query = """subscription($id: Int!) {
      tournamentEvents(tournamentId: $id, after: 0) { seq kind payload }
    }"""
    await subscribe(socket, query, {"id": tournament_id})
    got, _ = await frames(socket, last, "tournamentEvents")
    await socket.disconnect()
    chat = [frame["payload"] for frame in got if frame["kind"] == "CHAT"]
    assert chat == [
        {"seat": 0, "name": "Host", "text": "welcome"},
        {"seat": None, "spectator": 1, "name": "Ann", "text": "thanks"},
    ]
