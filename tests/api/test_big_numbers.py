"""No JSON answer or frame carries a number past 2^53 (JavaScript's exact integers): a seed is a
decimal string everywhere — REST, the stream, GraphQL, and the events stored before the rule
(docs/contract.md, "64-bit safe JSON")."""

from __future__ import annotations

import gzip
import importlib
import json
from typing import Any

import orjson
import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.apps import apps
from rest_framework.test import APIClient

from server.asgi import application
from tests.graphql.client import GraphQL
from tests.tournaments.play import Player, play_to_the_end
from tournaments.models import Tournament, TournamentEvent, TournamentEventArchive

pytestmark = pytest.mark.django_db(transaction=True)

SAFE = 2**53
SEED = 4195221113728792997  # past 2^53: JavaScript reads 4195221113728793000


def big_numbers(value: Any, at: str = "") -> list[str]:
    """Where ``value`` (parsed JSON) holds a number beyond ±2^53."""
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in big_numbers(v, f"{at}.{k}")]
    if isinstance(value, list):
        return [found for i, v in enumerate(value) for found in big_numbers(v, f"{at}[{i}]")]
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > SAFE:
        return [f"{at} = {value}"]
    return []


def rest_answers(host: Player) -> dict[str, Any]:
    """Every REST answer about a finished tournament, by path (as the seat and a spectator)."""
    base = f"/api/v1/tournaments/{host.id}/"
    paths = [base, *(base + end for end in ("verify/", "replay/", "matches/", "chat/"))]
    paths.append("/api/v1/tournaments/")
    answers: dict[str, Any] = {}
    for client, who in ((host.client, "seat"), (APIClient(), "spectator")):
        headers = host.headers if who == "seat" else {}
        for path in paths:
            response = client.get(path, headers=headers)
            assert response.status_code == 200, (path, response.content[:300])
            answers[f"{who} {path}"] = json.loads(response.content)
    matches = answers[f"seat {base}matches/"]
    for match in matches["results"] if isinstance(matches, dict) else matches:
        for end in ("", "events/"):
            path = f"/api/v1/matches/{match['id']}/{end}"
            answers[path] = json.loads(host.client.get(path, headers=host.headers).content)
    return answers


def graphql_answer(tournament_id: int) -> dict[str, Any]:
    query = """query($id: Int!) {
      tournament(id: $id) { fairness { commitment revealedSeed revealedNonce } }
      tournamentLog(tournamentId: $id, first: 500) { edges { node { seq kind payload } } }
    }"""
    return GraphQL().data(query, id=tournament_id)


async def stream_frames(tournament_id: int, last: int) -> list[Any]:
    """The stream's frames from ``after=0`` to ``last``, parsed exactly (Python ints)."""
    socket = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/?after=0")
    assert (await socket.connect())[0]
    frames: list[Any] = []
    while not frames or frames[-1]["seq"] < last:
        frames.append(json.loads(await socket.receive_from(timeout=10)))
    await socket.disconnect()
    return frames


def finished_game(settings: Any) -> Player:
    settings.TRUST_HOST_SEED = True  # the seed sent is the seed: one past 2^53
    host = play_to_the_end(seed=SEED)
    assert Tournament.objects.get(pk=host.id).seed == SEED
    return host


async def test_no_answer_or_frame_carries_a_number_past_2_53(catalogue: Any, settings: Any) -> None:
    host = await database_sync_to_async(finished_game)(settings)
    answers = await database_sync_to_async(rest_answers)(host)
    answers["graphql"] = await database_sync_to_async(graphql_answer)(host.id)
    last = await database_sync_to_async(
        lambda: TournamentEvent.objects.filter(tournament_id=host.id).order_by("-seq")[0].seq
    )()
    answers["stream"] = await stream_frames(host.id, last)
    assert [found for name, value in answers.items() for found in big_numbers(value, name)] == []

    base = f"seat /api/v1/tournaments/{host.id}/"
    assert answers[base]["fairness"]["revealed_seed"] == str(SEED)
    assert answers[base + "verify/"]["seed"] == str(SEED)
    assert answers["graphql"]["tournament"]["fairness"]["revealedSeed"] == str(SEED)
    revealed = [f["payload"] for f in answers["stream"] if f["kind"] == "seed_revealed"]
    assert revealed and revealed[0]["seed"] == str(SEED)
    logged = [e["node"] for e in answers["graphql"]["tournamentLog"]["edges"]]
    seeds = [e["payload"]["seed"] for e in logged if e["kind"] == "SEED_REVEALED"]
    assert seeds == [str(SEED)]


def test_the_seed_revealed_events_stored_as_numbers_become_decimal_strings(
    catalogue: Any, settings: Any
) -> None:
    host = finished_game(settings)
    stored = TournamentEvent.objects.get(tournament_id=host.id, kind="seed_revealed")
    stored.payload = {**stored.payload, "seed": SEED}  # as a server before the rule wrote it
    stored.save()
    rows = [[1, "seed_revealed", None, "2026-12-01T00:00:00+00:00", {"seed": SEED, "nonce": "n"}]]
    other = play_to_the_end()
    TournamentEventArchive.objects.create(
        tournament_id=other.id, events=gzip.compress(orjson.dumps(rows)), count=1
    )
    migration = importlib.import_module("tournaments.migrations.0015_seed_revealed_decimal_seed")
    migration.forwards(apps, None)
    stored.refresh_from_db()
    assert stored.payload["seed"] == str(SEED)
    archive = TournamentEventArchive.objects.get(tournament_id=other.id)
    assert orjson.loads(gzip.decompress(bytes(archive.events)))[0][4]["seed"] == str(SEED)


@pytest.mark.parametrize(
    ("sent", "status"),
    [(str(SEED), 201), (SEED, 201), (str(2**62 + 1), 400), ("12a", 400), ("-1", 400)],
)
def test_a_seed_is_sent_as_a_decimal_string(
    catalogue: Any, settings: Any, sent: Any, status: int
) -> None:
    """The schema asks for digits; a JSON number is still taken (deprecated); a seed out of
    range or not a number is refused with its field named, and nothing is created."""
    settings.TRUST_HOST_SEED = True
    body = {"name": "Ann", "seats": 2, "seed": sent}
    response = APIClient().post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == status, response.content
    if status == 201:
        assert Tournament.objects.get(pk=response.json()["id"]).seed == int(sent)
    else:
        assert "seed" in response.json()["details"] and not Tournament.objects.exists()
