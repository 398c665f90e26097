"""The live tournament stream over WebSockets: resume, redaction, refusals, the Redis layer."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator

from matches.observer import Viewer
from server.asgi import application
from tests.tournaments.play import Player, open_game
from tournaments.models import TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)


def two_seat_game() -> tuple[Player, Player]:
    """Two humans who answer by policy, started and waiting in round 1."""
    host, guest = open_game(seats=2, humans=2, seed=12)
    return host, guest


def play_round(host: Player, guest: Player) -> None:
    start = host.get()["round"]
    while host.get()["round"] == start and host.get()["status"] != "finished":
        assert host.act() or guest.act()


async def connect(tournament_id: int, query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/?{query}")
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def drain(communicator: WebsocketCommunicator, until_seq: int) -> list[dict[str, Any]]:
    """Frames until one with ``seq >= until_seq`` (or the stream goes quiet for 3 s)."""
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1].get("seq", 0) < until_seq:
        try:
            frames.append(await communicator.receive_json_from(timeout=3))
        except TimeoutError:
            break
    return frames


def last_seq(tournament_id: int) -> int:
    events = TournamentEvent.objects.filter(tournament_id=tournament_id)
    return events.order_by("-seq").values_list("seq", flat=True).first() or 0


async def test_resuming_with_after_loses_nothing_and_repeats_nothing(catalogue: Any) -> None:
    host, guest = await database_sync_to_async(two_seat_game)()
    first = await connect(host.id)
    await database_sync_to_async(play_round)(host, guest)
    upto = await database_sync_to_async(last_seq)(host.id)
    before = await drain(first, upto)
    await first.disconnect()
    await database_sync_to_async(play_round)(host, guest)
    resumed = await connect(host.id, f"after={before[-1]['seq']}")
    final = await database_sync_to_async(last_seq)(host.id)
    after = await drain(resumed, final)
    await resumed.disconnect()
    seqs = [frame["seq"] for frame in before + after]
    assert seqs == list(range(1, final + 1)), "every seq once, in order, hidden ones included"
    assert any(frame["kind"] == "match_event" for frame in after)
    standings = [f["payload"]["standings"] for f in before + after if f["kind"] == "round_finished"]
    assert len(standings) == 2 and {s["seat"] for s in standings[0]} == {0, 1}


async def test_a_spectator_never_receives_a_hidden_fact(catalogue: Any) -> None:
    host, guest = await database_sync_to_async(two_seat_game)()
    await database_sync_to_async(play_round)(host, guest)
    spectator = await connect(host.id)
    seat = await connect(host.id, f"token={host.token}")
    upto = await database_sync_to_async(last_seq)(host.id)
    public = await drain(spectator, upto)
    own = await drain(seat, upto)
    for communicator in (spectator, seat):
        await communicator.disconnect()
    private_seqs = await database_sync_to_async(
        lambda: set(
            TournamentEvent.objects.filter(
                tournament_id=host.id, audience__isnull=False
            ).values_list("seq", flat=True)
        )
    )()
    assert private_seqs, "the host's own answers and looks are private events"
    for frame in public:
        if frame["seq"] in private_seqs:
            assert (frame["kind"], frame["payload"]) == ("hidden", None)
            continue
        event = frame["payload"].get("event", {})
        assert event.get("kind") not in ("shuffle", "question", "answer", "arranged")
        assert not (event.get("kind") == "added" and "key" in event)
    assert [frame["seq"] for frame in public] == list(range(1, upto + 1)), "gapless"
    assert [frame["seq"] for frame in own] == list(range(1, upto + 1))
    hosts = await database_sync_to_async(
        lambda: set(
            TournamentEvent.objects.filter(tournament_id=host.id, audience=0).values_list(
                "seq", flat=True
            )
        )
    )()
    assert hosts and not any(frame["kind"] == "hidden" for frame in own if frame["seq"] in hosts)


@pytest.mark.parametrize(
    ("query", "code", "close"),
    [("token=nonsense", "bad_token", 4401), ("after=-3", "invalid", 4400)],
)
async def test_a_bad_token_or_after_closes_the_socket_with_a_clear_code(
    catalogue: Any, query: str, code: str, close: int
) -> None:
    host, _ = await database_sync_to_async(two_seat_game)()
    communicator = await connect(host.id, query)
    assert (await communicator.receive_json_from())["code"] == code
    assert (await communicator.receive_output())["code"] == close


async def test_a_tournament_that_does_not_exist_closes_the_socket(db: None) -> None:
    communicator = await connect(987654)
    assert (await communicator.receive_json_from())["code"] == "not_found"
    assert (await communicator.receive_output())["code"] == 4404


@pytest.fixture
def redis_layer(settings: Any) -> Iterator[None]:
    """The channels-redis layer of the full stack (needs REDIS_URL)."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL (the CI run sets it)")
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": url, "socket_timeout": None}], "prefix": "test"},
        }
    }
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def test_two_clients_on_the_redis_layer_receive_the_same_events_in_order(
    catalogue: Any, redis_layer: None
) -> None:
    host, guest = await database_sync_to_async(two_seat_game)()
    one = await connect(host.id)
    two = await connect(host.id)
    await database_sync_to_async(play_round)(host, guest)
    upto = await database_sync_to_async(last_seq)(host.id)
    first, second = await drain(one, upto), await drain(two, upto)
    for communicator in (one, two):
        await communicator.disconnect()
    assert first == second and first[-1]["seq"] == upto
    assert "RedisChannelLayer" in type(channel_layers["default"]).__name__


def test_the_streams_text_frames_are_the_events_each_viewer_may_read(catalogue: Any) -> None:
    """The live stream sends each frame as JSON text built around the stored payload; parsed,
    it is the frame ``events_after`` gives the same viewer, hidden events included."""
    import json

    from apikit.shapes import to_json
    from tests.tournaments.play import play_to_the_end
    from tournaments.selectors.events import event_texts_after, events_after

    host = play_to_the_end(seats=3, seed=21)
    assert TournamentEvent.objects.filter(tournament_id=host.id).exclude(audience=None).exists()
    for audience in (None, 1, 2, 3, 4):
        after = 37
        while after < last_seq(host.id):  # batch after batch, as a stream reads the log
            args: dict[str, Any] = {
                "tournament_id": host.id,
                "after": after,
                "viewer": Viewer(number=audience),
            }
            parsed, texts = events_after(**args), event_texts_after(**args)
            framed = [{"type": "event", **to_json(event)} for event in parsed.events]
            assert [json.loads(text) for text in texts.events] == framed
            assert texts.last_seq == parsed.last_seq > after
            assert (texts.next_due is None) == (parsed.next_due is None)
            after = parsed.last_seq
