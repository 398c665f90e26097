"""The draft advisor through GraphQL: REST's answer, REST's refusals."""

from __future__ import annotations

from typing import Any

import pytest

from tests.graphql.client import GraphQL
from tests.tournaments.play import open_game
from tournaments.models import Tournament

ADVICE = """query($id: Int!) { advice(tournamentId: $id) {
  round rival kind choices { option text card key winProbability sampleSize } } }"""


def snake(choice: dict[str, Any]) -> dict[str, Any]:
    renamed = {"winProbability": "win_probability", "sampleSize": "sample_size"}
    return {renamed.get(k, k): v for k, v in choice.items() if v is not None}


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(600)
def test_advice_answers_as_rest_does_and_is_refused_alike(catalogue: Any) -> None:
    host, _guest = open_game(seats=3, humans=2, seed=31)
    host.post("draft/draw")
    rest = host.client.get(f"/api/v1/tournaments/{host.id}/advice/", headers=host.headers).json()
    gql = GraphQL(f"Bearer {host.token}").data(ADVICE, id=host.id)["advice"]
    assert {k: gql[k] for k in ("round", "rival")} == {k: rest[k] for k in ("round", "rival")}
    assert gql["kind"] == rest["kind"].upper()  # the AdviceKind member of REST's value
    assert [snake(c) for c in gql["choices"]] == rest["choices"] and rest["choices"]
    spectator = GraphQL().post(ADVICE, id=host.id)["errors"][0]["extensions"]["code"]
    assert spectator == "seat_required"
    Tournament.objects.filter(pk=host.id).update(advice_allowed=False)
    refused = GraphQL(f"Bearer {host.token}").post(ADVICE, id=host.id)
    assert refused["errors"][0]["extensions"]["code"] == "advice_not_allowed"
    assert refused["data"] is None
