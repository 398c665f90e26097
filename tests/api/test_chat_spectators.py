"""Spectators at the table chat: only when the host allows it, by name, with a chat token that
their limits and the host's mute hold on to; every refusal is coded and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from server.asgi import application
from tests.tournaments.play import Player, open_game
from tournaments.models import ChatGuest, TournamentEvent
from tournaments.services.chat import CHAT_BURST, CHAT_MAX_CHARS, GUEST_NAME_CHARS

pytestmark = pytest.mark.django_db


class Guest:
    """A spectator with (or, before ``join``, without) a chat token."""

    def __init__(self, tournament_id: int) -> None:
        self.id = tournament_id
        self.client = APIClient()
        self.headers: dict[str, str] = {}

    def join(self, name: str, status: int = 201) -> dict[str, Any]:
        url = f"/api/v1/tournaments/{self.id}/chat/spectators/"
        response = self.client.post(url, {"name": name}, format="json")
        assert response.status_code == status, response.json()
        body: dict[str, Any] = response.json()
        if status == 201:
            self.headers = {"Authorization": f"Bearer {body['token']}"}
        return body

    def say(self, text: str, status: int = 200) -> dict[str, Any]:
        url = f"/api/v1/tournaments/{self.id}/chat/"
        response = self.client.post(url, {"text": text}, format="json", headers=self.headers)
        assert response.status_code == status, response.json()
        body: dict[str, Any] = response.json()
        return body


def lobby(spectator_chat: bool = True) -> Player:
    host, _guest = open_game(seats=3, humans=2, start=False, spectator_chat=spectator_chat)
    return host


def said(tournament_id: int) -> list[dict[str, Any]]:
    response = APIClient().get(f"/api/v1/tournaments/{tournament_id}/chat/")
    assert response.status_code == 200
    return list(response.json())


def test_a_spectator_joins_by_name_and_its_message_says_it_is_a_spectator() -> None:
    host = lobby()
    assert host.get()["options"]["spectator_chat"] is True
    ann = Guest(host.id)
    ticket = ann.join("  Ann   Lee ")
    assert (ticket["number"], ticket["name"]) == (1, "Ann Lee") and ticket["token"]
    message = ann.say("go <i>P1</i>!")
    assert message == {
        "seq": message["seq"],
        "seat": None,
        "spectator": 1,
        "name": "Ann Lee",
        "text": "go <i>P1</i>!",
    }
    assert said(host.id) == [message]
    assert Guest(host.id).join("Bob")["number"] == 2


def test_spectators_may_not_chat_unless_the_host_allows_it() -> None:
    host = lobby(spectator_chat=False)
    assert host.get()["options"]["spectator_chat"] is False
    guest = Guest(host.id)
    assert guest.join("Ann", status=403)["code"] == "chat_closed"
    assert guest.say("hi", status=403)["code"] == "chat_closed"
    assert not ChatGuest.objects.exists()
    refused = host.client.patch(
        f"/api/v1/tournaments/{host.id}/chat/",
        {"spectator_chat": True},
        format="json",
        headers={},
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "host_only")
    opened = host.client.patch(
        f"/api/v1/tournaments/{host.id}/chat/",
        {"spectator_chat": True},
        format="json",
        headers=host.headers,
    )
    assert opened.status_code == 200 and opened.json()["options"]["spectator_chat"] is True
    assert guest.say("hi", status=403)["code"] == "chat_join_first"
    guest.join("Ann")
    guest.say("hi")
    host.client.patch(
        f"/api/v1/tournaments/{host.id}/chat/",
        {"spectator_chat": False},
        format="json",
        headers=host.headers,
    )
    assert guest.say("still here?", status=403)["code"] == "chat_closed"
    kinds = TournamentEvent.objects.filter(tournament_id=host.id, kind="chat_settings")
    assert [e.payload for e in kinds] == [{"spectator_chat": True}, {"spectator_chat": False}]


def test_bad_and_taken_names_are_refused_and_change_nothing() -> None:
    host = lobby()
    guest = Guest(host.id)
    long = guest.join("x" * (GUEST_NAME_CHARS + 1), status=400)
    assert (long["code"], long["details"]) == ("chat_bad_name", {"max": GUEST_NAME_CHARS})
    assert guest.join("   ", status=400)["code"] == "chat_bad_name"
    assert guest.join("Ann\u0007", status=400)["code"] == "chat_bad_name"
    assert guest.join("host", status=409)["code"] == "name_taken"  # the host seat's name
    guest.join("Ann")
    assert Guest(host.id).join("ANN", status=409)["code"] == "name_taken"
    assert list(ChatGuest.objects.values_list("name", flat=True)) == ["Ann"]


def test_a_spectators_messages_are_limited_in_length_and_pace() -> None:
    host = lobby()
    guest = Guest(host.id)
    guest.join("Ann")
    assert guest.say(" ", status=400)["code"] == "chat_empty"
    long = guest.say("x" * (CHAT_MAX_CHARS + 1), status=400)
    assert (long["code"], long["details"]) == ("chat_too_long", {"max": CHAT_MAX_CHARS})
    for n in range(CHAT_BURST):
        guest.say(f"go {n}")
    fast = guest.say("one more", status=429)
    assert fast["code"] == "chat_too_fast" and fast["details"]["retry_after"] > 0
    host.post("chat", {"text": "the host is not slowed by a spectator"})
    other = Guest(host.id)
    other.join("Bob")
    other.say("nor is another spectator")
    assert len(said(host.id)) == CHAT_BURST + 2


def test_the_host_mutes_a_spectator_by_its_number() -> None:
    host = lobby()
    ann, bob = Guest(host.id), Guest(host.id)
    ann.join("Ann")
    bob.join("Bob")
    assert host.post("chat/mute", {"spectator": 9, "muted": True}, status=404)["code"] == (
        "no_such_seat"
    )
    both = host.post("chat/mute", {"seat": 1, "spectator": 1, "muted": True}, status=400)
    assert both["code"] == "invalid"
    host.post("chat/mute", {"spectator": 1, "muted": True})
    assert ann.say("spam", status=403)["code"] == "chat_muted"
    bob.say("not muted")
    host.post("chat", {"text": "nor is the seat of the same number"})
    host.post("chat/mute", {"spectator": 1, "muted": False})
    ann.say("sorry")
    assert [m["text"] for m in said(host.id)][-1] == "sorry"


def test_a_chat_token_is_no_seat_token_and_holds_in_its_tournament_only() -> None:
    host = lobby()
    guest = Guest(host.id)
    guest.join("Ann")
    view = APIClient().get(f"/api/v1/tournaments/{host.id}/", headers=guest.headers)
    assert (view.status_code, view.json()["code"]) == (401, "bad_token")
    other = lobby()
    guest.id = other.id
    assert guest.say("hi", status=403)["code"] == "wrong_tournament"
    assert said(other.id) == []


@pytest.mark.django_db(transaction=True)
async def test_a_spectators_message_comes_over_the_stream_as_a_chat_frame() -> None:
    def one_message() -> tuple[int, int]:
        host = lobby()
        guest = Guest(host.id)
        guest.join("Ann")
        return host.id, guest.say("hello")["seq"]

    tournament_id, seq = await database_sync_to_async(one_message)()
    stream = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/?after={seq - 1}")
    assert (await stream.connect(timeout=5))[0]
    frame = await stream.receive_json_from(timeout=5)
    await stream.disconnect()
    assert (frame["type"], frame["kind"], frame["seq"]) == ("event", "chat", seq)
    assert frame["payload"] == {"seat": None, "spectator": 1, "name": "Ann", "text": "hello"}
