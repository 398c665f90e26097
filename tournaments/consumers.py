"""The live event stream of a tournament: ``ws://host/ws/tournaments/{id}/?token=…&after=N``.

On connect the viewer gets every event after ``N`` it may see, read from the database log, then
the live stream: each nudge from the channel layer makes the consumer read the log again from the
last seq it sent, so nothing is lost or repeated however the nudges arrive. A spectator (no token)
gets the public events only; a seat also gets its own private ones.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.selectors.events import LogSlice, events_after
from tournaments.services.common import seat_for_token
from tournaments.services.events import group_name

CLOSE_BAD_REQUEST = 4400
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404


class Refused(Exception):
    def __init__(self, close_code: int, code: str, message: str) -> None:
        super().__init__(message)
        self.close_code, self.code, self.message = close_code, code, message


def _viewer(tournament_id: int, token: str | None) -> int | None:
    """The viewer's seat number (``None``: spectator), or ``Refused``."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        raise Refused(CLOSE_NOT_FOUND, "not_found", "No such tournament.")
    if not token:
        return None
    seat = seat_for_token(token, tournament_id)
    if seat is None:
        raise Refused(CLOSE_BAD_TOKEN, "bad_token", "That seat token is not known here.")
    return seat.number


def _after(query: dict[str, list[str]]) -> int:
    raw = query.get("after", ["0"])[0]
    if not raw.isdigit():
        raise Refused(CLOSE_BAD_REQUEST, "invalid", "`after` must be a whole number.")
    return int(raw)


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.timer: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        await self.accept()
        try:
            self.last = _after(query)
            token = query.get("token", [None])[0]
            self.audience = await database_sync_to_async(_viewer)(self.tournament_id, token)
        except Refused as refused:
            await self.send_json(
                {"type": "error", "code": refused.code, "message": refused.message}
            )
            await self.close(code=refused.close_code)
            return
        self.group = group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.deliver()

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json(
            {"type": "error", "code": "read_only", "message": "This stream only sends events."}
        )

    async def log_grew(self, message: dict[str, Any]) -> None:
        await self.deliver()

    async def deliver(self) -> None:
        """Send what the log holds after the last sent seq; wake up for held-back events."""
        async with self.lock:
            part: LogSlice = await database_sync_to_async(events_after)(
                tournament_id=self.tournament_id, after=self.last, audience=self.audience
            )
            for frame in part.events:
                await self.send_json(frame)
            self.last = part.last_seq
        if part.next_due is not None:
            self._wake_at(part.next_due)

    def _wake_at(self, due: Any) -> None:
        if self.timer is not None and not self.timer.done():
            self.timer.cancel()
        delay = max((due - timezone.now()).total_seconds(), 0.0)
        self.timer = asyncio.create_task(self._sleep_then_deliver(delay))

    async def _sleep_then_deliver(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self.deliver()
