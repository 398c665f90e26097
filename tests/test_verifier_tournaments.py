"""The verifier accepts every kind of real tournament: seat counts 1-8 (the Robot at an odd
table, a solo player against it), Winter Park normal and all, the Beach Cup on Rainbow, the
Robot's difficulty and solo challenge, every bot level.

Each is played by bots to its end on the real services, read through the public transports (the
view and the replay over REST, the log over GraphQL, as a spectator), and checked by the
verifier's own code (``verifier/challengers_verify``) with the commitment the lobby showed.
``tests/test_verifier.py`` installs the package on its own and checks the forgeries.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from django.test import Client

from tests.live_server import ROOT
from tournaments.models import Seat, SeatKind, Status, Tournament
from tournaments.services.lobby import seat_add_bots, tournament_create
from tournaments.services.start import tournament_start

sys.path.insert(0, str(ROOT / "verifier"))

from challengers_verify.check import Forged, verify_tournament
from challengers_verify.documents import LOG_QUERY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.long]

KINDS: dict[str, tuple[int, str, dict[str, Any]]] = {
    "solo against the Robot": (1, "champion", {"robot_difficulty": 5, "solo_challenge": True}),
    "two seats, Winter Park everywhere": (2, "steady", {"winter_mode": "all"}),
    "four seats, Beach Cup on Rainbow": (
        4,
        "champion",
        {"basic_set": "Rainbow", "beach_cup": True},
    ),
    "five seats and the Robot, Winter Park": (5, "rookie", {"winter_mode": "normal"}),
    "eight seats": (8, "steady", {"robot_difficulty": 3}),
}


def _played(seats: int, level: str, options: dict[str, Any], seed: int) -> tuple[int, str]:
    """A lobby of bots only (the host turned bot), started: the tasks play it to the end."""
    ticket = tournament_create(host_name="Host", seat_count=seats, seed=seed, **options)
    noted = ticket.tournament.commitment  # as the lobby shows it
    if seats > 1:
        seat_add_bots(
            tournament_id=ticket.tournament.pk, seat=ticket.seat, count=seats - 1, level=level
        )
    Seat.objects.filter(pk=ticket.seat.pk).update(kind=SeatKind.BOT, token_hash="")
    tournament_start(tournament_id=ticket.tournament.pk, seat=ticket.seat)
    return ticket.tournament.pk, noted


def _documents(client: Client, number: int) -> tuple[Any, Any, list[Any]]:
    view = client.get(f"/api/v1/tournaments/{number}/").json()
    replay = client.get(f"/api/v1/tournaments/{number}/replay/").json()
    log: list[Any] = []
    after = None
    while True:
        body = {"query": LOG_QUERY, "variables": {"id": number, "after": after}}
        page = client.post("/graphql/", body, content_type="application/json").json()
        found = page["data"]["tournamentLog"]
        log += [{**e["node"], "kind": e["node"]["kind"].lower()} for e in found["edges"]]
        if not found["pageInfo"]["hasNextPage"]:
            return view, replay, log
        after = found["pageInfo"]["endCursor"]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_verifier_accepts_a_real_tournament_of_each_kind(catalogue: Any, kind: str) -> None:
    seats, level, options = KINDS[kind]
    number, noted = _played(seats, level, options, seed=40 + list(KINDS).index(kind))
    assert Tournament.objects.get(pk=number).status == Status.FINISHED
    view, replay, log = _documents(Client(), number)
    assert replay["deck_phases"] and all(p["moves"] for p in replay["deck_phases"])
    said = verify_tournament(noted, view, replay, log)
    assert said.startswith(f"tournament {number}: the commitment opens"), said
    with pytest.raises(Forged, match=r"^commitment: "):
        verify_tournament("0" * 64, view, replay, log)
    crowned = [
        {**e, "payload": {**e["payload"], "winners": [7]}}
        if e["kind"] == "tournament_finished"
        else e
        for e in log
    ]
    with pytest.raises(Forged, match=r"^result: "):
        verify_tournament(noted, view, replay, crowned)
