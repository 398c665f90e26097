"""The card queries refuse a bad ``Authorization`` as REST's card endpoints do, and answer any
known caller (a seat, an organizer, a spectator) alike."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.graphql.client import GraphQL
from tests.leagues.helpers import create_organizer

pytestmark = pytest.mark.django_db

QUERIES = {
    "cards/": "{ result: cards(first: 1) { totalCount } }",
    "card-sets/": "{ result: cardSets(first: 1) { totalCount } }",
}


@pytest.mark.parametrize("path", QUERIES)
@pytest.mark.parametrize("header", ["Bearer wrong", "Token wrong", "Basic x"])
def test_a_bad_token_is_refused_as_in_rest(catalogue: Any, path: str, header: str) -> None:
    rest = APIClient().get(f"/api/v1/{path}", headers={"Authorization": header})
    assert rest.status_code in (401, 403), rest.content
    body = GraphQL(header).post(QUERIES[path])
    assert body["data"] is None
    [error] = body["errors"]
    refusal = rest.json()
    assert (error["message"], error["extensions"]) == (
        refusal["message"],
        {"code": refusal["code"], "details": refusal["details"]},
    )


def test_a_known_caller_reads_the_cards(catalogue: Any) -> None:
    client = APIClient()
    seat = client.post("/api/v1/tournaments/", {"name": "A", "seats": 2}, format="json").json()
    callers = [None, f"Bearer {seat['seat']['token']}", f"Token {create_organizer('org')}"]
    counts = {GraphQL(caller).data(QUERIES["cards/"])["result"]["totalCount"] for caller in callers}
    assert len(counts) == 1 and counts.pop() > 0
