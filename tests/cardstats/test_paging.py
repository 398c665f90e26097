"""A design's or a set's figures per set combination are served a page at a time: REST with
``limit`` and ``offset`` (as the tournament list), GraphQL as a connection (``first``/``after``)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.graphql.client import GraphQL
from tournaments.rules.cardstats import Counts, tally_rows
from tournaments.services.cardstats import card_stats_write

pytestmark = pytest.mark.django_db

COMBINATIONS = [f"City+Set{number:02}" for number in range(25)]


@pytest.fixture
def combinations(catalogue: Any) -> None:
    """The Dragon played in 25 set combinations, once in each (won in the even ones)."""
    for number, sets in enumerate(COMBINATIONS):
        won = Counts(decks=1, deck_wins=int(number % 2 == 0))
        card_stats_write(tally_rows({("Castle/Dragon", "human"): won}, sets))


def test_rest_serves_the_combinations_a_page_at_a_time(combinations: None) -> None:
    body = APIClient().get("/api/v1/cards/Castle/Dragon/stats/?limit=10&offset=20").json()
    page = body["by_sets"]
    assert (page["count"], page["limit"], page["offset"]) == (25, 10, 20)
    assert [row["sets"] for row in page["results"]] == COMBINATIONS[20:]
    assert body["total"]["decks"] == 25  # the total is every combination's, whatever the page
    first = APIClient().get("/api/v1/card-sets/Castle/stats/").json()["by_sets"]
    assert [row["sets"] for row in first["results"]] == COMBINATIONS[:20]  # 20 by default


@pytest.mark.parametrize("query", ["limit=0", "limit=101", "offset=-1", "limit=x", "page=2"])
def test_rest_refuses_a_bad_page(combinations: None, query: str) -> None:
    response = APIClient().get(f"/api/v1/cards/Castle/Dragon/stats/?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["code"] in {"invalid", "unknown_parameter"}


QUERY = """query($k: String!, $first: Int!, $after: String) {
  cardStats(key: $k) {
    total { decks }
    bySets(first: $first, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { sets decks deckWins winInterval } }
    }
  }
}"""


def test_graphql_serves_the_combinations_as_a_connection(combinations: None) -> None:
    seen: list[str] = []
    after = None
    while True:
        answer = GraphQL().post(QUERY, k="Castle/Dragon", first=10, after=after)
        page = answer["data"]["cardStats"]["bySets"]
        assert page["totalCount"] == 25
        seen += [edge["node"]["sets"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == COMBINATIONS
    rest = APIClient().get("/api/v1/cards/Castle/Dragon/stats/?limit=1").json()["by_sets"]
    first = GraphQL().post(QUERY, k="Castle/Dragon", first=1)["data"]["cardStats"]["bySets"]
    assert first["edges"][0]["node"]["winInterval"] == rest["results"][0]["win_interval"]


def test_graphql_refuses_a_bad_page(combinations: None) -> None:
    answer = GraphQL().post(QUERY, k="Castle/Dragon", first=500)
    assert answer["errors"][0]["extensions"]["code"] == "invalid"
    answer = GraphQL().post(QUERY, k="Castle/Dragon", first=5, after="bm9wZQ==")
    assert answer["errors"][0]["extensions"]["code"] == "invalid"
