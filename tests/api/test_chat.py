"""Table chat: seats post plain text kept in the tournament's log; limits and mutes are coded."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from server.asgi import application
from tests.tournaments.play import Player, open_game, play_to_the_end
from tournaments.models import TournamentEvent
from tournaments.services.bot_talk import BOT_FAREWELL, BOT_GREETING
from tournaments.services.chat import CHAT_BURST, CHAT_MAX_CHARS

pytestmark = pytest.mark.django_db


def lobby() -> tuple[Player, Player]:
    host, guest = open_game(seats=3, humans=2, start=False)
    return host, guest


def said(tournament_id: int) -> list[dict[str, Any]]:
    response = APIClient().get(f"/api/v1/tournaments/{tournament_id}/chat/")  # a spectator
    assert response.status_code == 200
    return list(response.json())


def test_a_message_is_a_numbered_public_event_of_the_log() -> None:
    host, guest = lobby()
    message = guest.post("chat", {"text": "  hello   <b>all</b>\n"})
    assert message["text"] == "hello <b>all</b>" and message["name"] == "P1"
    event = TournamentEvent.objects.get(tournament_id=host.id, kind="chat")
    assert event.seq == message["seq"] and event.audience is None
    assert said(host.id) == [message]


def test_empty_long_fast_and_spectator_messages_are_refused_and_change_nothing() -> None:
    host, _guest = lobby()
    assert host.post("chat", {"text": " \n "}, status=400)["code"] == "chat_empty"
    long = host.post("chat", {"text": "x" * (CHAT_MAX_CHARS + 1)}, status=400)
    assert (long["code"], long["details"]) == ("chat_too_long", {"max": CHAT_MAX_CHARS})
    spectator = APIClient().post(
        f"/api/v1/tournaments/{host.id}/chat/", {"text": "hi"}, format="json"
    )
    assert (spectator.status_code, spectator.json()["code"]) == (403, "chat_closed")
    assert said(host.id) == []
    for n in range(CHAT_BURST):
        host.post("chat", {"text": f"gl {n}"})
    fast = host.post("chat", {"text": "one more"}, status=429)
    assert fast["code"] == "chat_too_fast" and fast["details"]["retry_after"] > 0
    assert len(said(host.id)) == CHAT_BURST


def test_the_host_mutes_and_unmutes_a_seat_and_only_the_host_may() -> None:
    host, guest = lobby()
    refused = guest.post("chat/mute", {"seat": 0, "muted": True}, status=403)
    assert refused["code"] == "host_only"
    assert host.post("chat/mute", {"seat": 6, "muted": True}, status=404)["code"] == "no_such_seat"
    host.post("chat/mute", {"seat": 1, "muted": True})
    assert guest.post("chat", {"text": "spam"}, status=403)["code"] == "chat_muted"
    host.post("chat/mute", {"seat": 1, "muted": False})
    guest.post("chat", {"text": "sorry"})
    assert [m["text"] for m in said(host.id)] == ["sorry"]
    mutes = TournamentEvent.objects.filter(tournament_id=host.id, kind="chat_mute").count()
    assert mutes == 2


@pytest.mark.django_db(transaction=True)
async def test_chat_frames_come_over_the_stream_and_resume_after_a_number() -> None:
    def two_messages() -> tuple[int, int]:
        host, guest = lobby()
        first = guest.post("chat", {"text": "hi"})["seq"]
        host.post("chat", {"text": "welcome"})
        return host.id, first

    tournament_id, first = await database_sync_to_async(two_messages)()
    stream = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/?after={first}")
    assert (await stream.connect(timeout=5))[0]
    frame = await stream.receive_json_from(timeout=5)
    await stream.disconnect()
    assert (frame["type"], frame["kind"], frame["seq"]) == ("event", "chat", first + 1)
    assert frame["payload"] == {"seat": 0, "name": "Host", "text": "welcome"}


def test_a_chat_refusal_is_written_in_the_callers_language() -> None:
    host, _guest = lobby()
    url = f"/api/v1/tournaments/{host.id}/chat/?lang=ru"
    long = {"text": "x" * (CHAT_MAX_CHARS + 1)}
    response = host.client.post(url, long, format="json", headers=host.headers)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "chat_too_long" and body["details"] == {"max": CHAT_MAX_CHARS}
    assert body["message"] == f"Не больше {CHAT_MAX_CHARS} символов."  # noqa: RUF001
    assert not TournamentEvent.objects.filter(tournament_id=host.id, kind="chat").exists()


@pytest.mark.django_db(transaction=True)  # the bots play in tasks queued on commit
def test_the_bots_greet_the_table_at_the_start_and_say_gg_at_the_end(catalogue: Any) -> None:
    host = play_to_the_end(seats=2)  # the host and one bot
    messages = said(host.id)
    bot = next(seat for seat in host.get()["seats"] if seat["kind"] == "bot")
    assert [(m["seat"], m["text"], m.get("line")) for m in messages] == [
        (bot["number"], BOT_GREETING, "greeting"),  # the line's name: a client translates it
        (bot["number"], BOT_FAREWELL, "farewell"),
    ]
    kinds = list(
        TournamentEvent.objects.filter(tournament_id=host.id).order_by("seq").values_list("kind")
    )
    start, end = kinds.index(("tournament_started",)), kinds.index(("seed_revealed",))
    assert kinds[start + 1] == kinds[end - 1] == ("chat",)  # right after the start, before the end
    assert kinds[-1] == ("tournament_finished",)  # the end stays the stream's last event
