"""This machine's anchors for ``bench_stack.py``: what the bare transports cost right now.

A shared machine's speed drifts from one spell to the next, so the stack's figures are also
printed as ratios of two anchors measured in the same spell, on the same Redis:

- **a bare Channels echo**: a minimal consumer (``EchoConsumer``, served by a Daphne of its own
  from ``application`` below) sends each text frame it receives to its own channel through the
  channel layer and, when the layer hands it back, to the socket. Its round trip is what the live
  stream's nudge costs (layer, Daphne, socket) without the log's read.
- **a bare Celery round trip**: ``server.celery.ping`` (a no-op) sent through the broker to the
  benchmark's own workers, its result read back from the result backend.
- **Python's speed**: the CPU of a fixed pure-Python workload (``python_cpu_ms``). Two machines
  "of the same kind" can differ 2.5x in it, and a worker's CPU per match moves with it.

    daphne -p 8001 bench_anchors:application   # with scripts/ on PYTHONPATH
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
from contextlib import suppress
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

ECHO_PATH = "/echo/"
LOST_SECONDS = 5.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _application() -> Any:
    import django

    django.setup()
    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    class EchoConsumer(AsyncWebsocketConsumer):
        async def receive(self, text_data: str | None = None, bytes_data: Any = None) -> None:
            await self.channel_layer.send(self.channel_name, {"type": "echo", "text": text_data})

        async def echo(self, message: dict[str, Any]) -> None:
            await self.send(text_data=message["text"])

    routes = URLRouter([path(ECHO_PATH.strip("/") + "/", EchoConsumer.as_asgi())])
    return ProtocolTypeRouter({"websocket": routes})


def __getattr__(name: str) -> Any:
    """``application`` is built when Daphne asks for it (Django set up in that process only)."""
    if name == "application":
        return _application()
    raise AttributeError(name)


async def echo_round_trips(port: int, *, sockets: int = 8, messages: int = 60) -> list[float]:
    """Milliseconds of each echo: ``sockets`` clients at once, each sending its next frame when
    the last came back (or after ``LOST_SECONDS``: an echo lost counts as that long)."""
    from websockets.asyncio.client import connect

    async def client() -> list[float]:
        times = []
        async with connect(f"ws://127.0.0.1:{port}{ECHO_PATH}") as socket_:
            for number in range(messages):
                began = time.perf_counter()
                await socket_.send(str(number))
                with suppress(TimeoutError):
                    async with asyncio.timeout(LOST_SECONDS):
                        while await socket_.recv() != str(number):
                            pass  # a late echo of a frame counted as lost
                times.append((time.perf_counter() - began) * 1000)
        return times[5:]  # the first frames pay for the connection's setup

    found = await asyncio.gather(*(client() for _ in range(sockets)))
    return [ms for times in found for ms in times]


def celery_round_trips(count: int = 40) -> list[float]:
    """Milliseconds of each no-op task sent and its result read back, one after the other."""
    from server.celery import ping

    times = []
    for _ in range(count + 3):
        began = time.perf_counter()
        assert ping.apply_async(ignore_result=False).get(timeout=30) == "pong"
        times.append((time.perf_counter() - began) * 1000)
    return times[3:]  # the first ones open the connections


def python_cpu_ms(repeat: int = 5) -> float:
    """Median CPU milliseconds of a fixed pure-Python workload, the kind of work a worker does
    around its statements (integer arithmetic, dicts and lists, a JSON round trip)."""
    document = {
        "events": [{"seq": n, "kind": "attack", "cards": list(range(8))} for n in range(200)]
    }
    spells = []
    for _ in range(repeat):
        began = time.process_time()
        total = sum(n * n % 7 for n in range(300_000))
        for _ in range(20):
            total += len(json.loads(json.dumps(document))["events"])
        spells.append((time.process_time() - began) * 1000)
    assert total > 0
    return statistics.median(spells)
