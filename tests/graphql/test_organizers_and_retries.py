"""An organizer runs a bot-only tournament through GraphQL (``Authorization: Token …``), and a
mutation sent again with its ``Idempotency-Key`` is answered once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.snapshot import everything
from tests.api.test_organizers import create_organizer
from tests.graphql.client import TICKET, GraphQL, mutate, operation, payload
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ANN = {"input": {"seats": 2, "name": "Ann"}}


def test_an_organizer_opens_fills_and_starts_a_tournament_to_its_champion(
    catalogue: Any,
) -> None:
    gql = GraphQL(f"Token {create_organizer('olga')}")
    made = payload(gql, "createTournament", TICKET, seats=3, seed="4")
    ticket = made["ticket"]
    assert made["errors"] == [] and ticket["seat"] is None and ticket["token"] is None
    tid = ticket["id"]
    assert mutate(gql, "addBots", tournamentId=tid, count=3)["tournament"]["you"] is None
    started = mutate(gql, "startTournament", tournamentId=tid)
    assert started["errors"] == [] and started["tournament"]
    assert Tournament.objects.get(pk=tid).status == "finished"  # bots alone play it through
    before = everything()
    refused = mutate(gql, "cancelTournament", tournamentId=tid)
    assert refused["tournament"] is None and refused["errors"][0]["code"] == "already_over"
    assert everything() == before
    host_only = mutate(GraphQL(), "startTournament", tournamentId=tid)["errors"]
    assert [error["code"] for error in host_only] == ["host_only"]


def test_a_mutation_sent_again_with_its_key_runs_once(catalogue: Any) -> None:
    query = operation("createTournament", TICKET)
    gql = GraphQL()
    headers = {"Idempotency-Key": "create-1"}
    first = gql.client.post(
        "/graphql/",
        {"query": query, "variables": ANN},
        content_type="application/json",
        headers=headers,
    )
    again = gql.client.post(
        "/graphql/",
        {"query": query, "variables": ANN},
        content_type="application/json",
        headers=headers,
    )
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Tournament.objects.count() == 1
    other = {"input": {"seats": 3, "name": "Ann"}}
    reused = gql.client.post(
        "/graphql/",
        {"query": query, "variables": other},
        content_type="application/json",
        headers=headers,
    )
    assert reused.status_code == 409
    (error,) = reused.json()["errors"]  # GraphQL's shape, REST's code
    assert error["extensions"]["code"] == "idempotency_key_reused"
    bad = gql.client.post(
        "/graphql/",
        {"query": query, "variables": ANN},
        content_type="application/json",
        headers={"Idempotency-Key": "é" * 3},
    )
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["extensions"]["code"] == "bad_idempotency_key"
