"""The drill's clients: what an organizer, a stream follower and a reader do over the public API.

Nothing here imports the server's code: the drill plays as any client would, over REST
(``urllib``) and the live stream (``websockets``), spread over the stack's Daphnes as a proxy in
front of them would spread its connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

RECONNECT_SECONDS = 0.2
POLL_SECONDS = 1.0


class Unanswered(Exception):
    """No HTTP answer at all (refused, reset, timed out)."""


@dataclass
class Api:
    """REST as the drill's organizer, over the Daphnes in turn; a 5xx or no answer is retried
    with the same ``Idempotency-Key`` (the server never does a keyed POST twice)."""

    ports: list[int]
    token: str
    turn: int = 0

    def request(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        self.turn += 1
        port = self.ports[self.turn % len(self.ports)]
        headers = {"Content-Type": "application/json", "Authorization": f"Token {self.token}"}
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        url = f"http://127.0.0.1:{port}/api/v1/{path}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def post(self, path: str, body: Any = None) -> Any:
        key = str(uuid.uuid4())
        deadline = time.monotonic() + 120
        while True:
            try:
                return self.request("POST", path, {} if body is None else body, key)
            except (urllib.error.URLError, OSError) as error:
                retry = not isinstance(error, urllib.error.HTTPError) or error.code >= 500
                if not retry or time.monotonic() > deadline:
                    raise
                time.sleep(1)

    def status(self, path: str) -> tuple[int | None, Any]:
        """One GET: its status (None: no answer) and its JSON body when it has one."""
        try:
            return 200, self.request("GET", path)
        except urllib.error.HTTPError as error:
            try:
                return error.code, json.load(error)
            except ValueError:  # not JSON (an HTML error page)
                return error.code, None
        except (urllib.error.URLError, OSError):
            return None, None


def open_tournament(api: Api, seats: int) -> int:
    """A lobby of ``seats`` bots, started: what an organizer does to run a bot tournament."""
    ticket = api.post("tournaments/", {"seats": seats})
    tournament = int(ticket["id"])
    api.post(f"tournaments/{tournament}/bots/", {"count": seats})
    api.post(f"tournaments/{tournament}/start/")
    return tournament


@dataclass
class Follower:
    """A spectator of one tournament's stream who resumes by ``after=`` after every drop."""

    tournament: int
    ports: list[int]
    frames: list[tuple[int, str, float]] = field(default_factory=list)  # (seq, kind, received)
    reconnects: int = 0
    refused: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return any(kind == "tournament_finished" for _, kind, _ in self.frames)

    @property
    def last(self) -> int:
        return self.frames[-1][0] if self.frames else 0

    async def follow(self) -> None:
        """Until ``tournament_finished``: connect (the next Daphne after a failure), read."""
        attempt = self.tournament
        while not self.finished:
            port = self.ports[attempt % len(self.ports)]
            with contextlib.suppress(OSError, WebSocketException, asyncio.TimeoutError):
                await self._read(port)
            if not self.finished:
                self.reconnects += 1
                attempt += 1
                await asyncio.sleep(RECONNECT_SECONDS)

    async def _read(self, port: int) -> None:
        url = f"ws://127.0.0.1:{port}/ws/tournaments/{self.tournament}/?after={self.last}"
        origin = Origin(f"http://127.0.0.1:{port}")  # Channels refuses sockets of unknown origin
        async with connect(url, origin=origin, max_queue=None, open_timeout=10) as socket_:
            async for raw in socket_:
                frame = json.loads(raw)
                if frame.get("type") != "event":
                    self.refused.append(str(frame))
                    continue
                self.frames.append((frame["seq"], frame["kind"], time.time()))
                if frame["kind"] == "tournament_finished":
                    return


@dataclass
class Reader:
    """Reads a path every second, as a polling client would; counts the answers by status."""

    api: Api
    path: str
    statuses: dict[str, int] = field(default_factory=dict)
    failing: dict[str, int] = field(default_factory=dict)  # /health/'s parts not ok

    def fives(self) -> int:
        """Failures: answers 500-599 other than a coded refusal (``coded``)."""
        return sum(n for name, n in self.statuses.items() if name[0] == "5" and " " not in name)

    def coded(self) -> int:
        """5xx answers in the coded error shape with a code of their own (a 503
        ``database_unavailable`` while PostgreSQL is down): the promised answer, not a bug."""
        return sum(n for name, n in self.statuses.items() if name[0] == "5" and " " in name)

    async def read(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            code, body = await asyncio.to_thread(self.api.status, self.path)
            name = "none" if code is None else str(code)
            if code is not None and code >= 500 and (error := error_code(body)):
                name = f"{code} {error}"
            self.statuses[name] = self.statuses.get(name, 0) + 1
            for part in failing_parts(body):
                self.failing[part] = self.failing.get(part, 0) + 1
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=POLL_SECONDS)


def error_code(body: Any) -> str | None:
    """The ``code`` of a coded error body, unless it is ``server_error`` (a bug)."""
    code = body.get("code") if isinstance(body, dict) else None
    return code if isinstance(code, str) and code != "server_error" else None


def failing_parts(body: Any) -> list[str]:
    """The parts of a ``/health/`` answer that are not ok (none for any other answer)."""
    parts = body.items() if isinstance(body, dict) else []
    return [name for name, part in parts if isinstance(part, dict) and part.get("ok") is False]
