"""GraphQL's lists read through REST's selectors and caches: the same page costs the same SQL
statements on both transports."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cards.models import CardSet
from tests.graphql.client import GraphQL, edges, nodes
from tests.tournaments.play import Player, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = (
    "query($t: Int!) { matches(tournamentId: $t, first: 100)"
    + edges("databaseId status winner eventsReleased seats { number side } question { seq }")
    + " }"
)


@pytest.fixture
def finished(catalogue: Any) -> Player:
    """A finished 4-seat tournament: one human (the host), three bots, 15 matches."""
    return play_to_the_end(seats=4, seed=11)


def statements(read: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as captured:
        answer = read()
    return len(captured), answer


@pytest.mark.parametrize("seated", [False, True], ids=["spectator", "seat"])
def test_the_graphql_match_list_sends_as_many_statements_as_rests(
    finished: Player, seated: bool
) -> None:
    """Once REST has read the list, GraphQL's page of it is REST's cached list: one stamp of
    the tournament (and the token's lookup for a seat), no match read again."""
    headers = finished.headers if seated else {}
    url = f"/api/v1/tournaments/{finished.id}/matches/"
    rest = APIClient()
    rest.get(url, headers=headers)  # fills the list's cache for this version and viewer
    rest_count, listed = statements(lambda: rest.get(url, headers=headers).json())
    gql = GraphQL(headers.get("Authorization"))
    graphql_count, page = statements(lambda: gql.data(MATCHES, t=finished.id))
    assert graphql_count == rest_count == (2 if seated else 1)
    assert [node["databaseId"] for node in nodes(page["matches"])] == [m["id"] for m in listed]
    assert len(listed) == 15


SETS = "{ cardSets(first: 30) { edges { node { name designs %s } } } }"
DESIGNS = "fragment Designs on CardSet { cards(first: 20) { totalCount edges { node { key } } } }"


def test_the_card_sets_read_their_designs_only_when_a_query_selects_them(
    catalogue: Any,
) -> None:
    """Read cold (a new catalogue version each time), the sets without ``cards`` leave the
    designs' query out; asked for through a fragment, they are there."""
    gql = GraphQL()
    counted = []
    for query in (SETS % "", SETS % "...Designs" + DESIGNS):
        CardSet.objects.earliest("pk").save()  # a new catalogue version: nothing cached
        counted.append(statements(lambda query=query: gql.data(query)))
    (bare, _plain), (full, page) = counted
    assert bare == full - 1
    sets = nodes(page["cardSets"])
    assert sum(s["cards"]["totalCount"] for s in sets) == sum(s["designs"] for s in sets) > 0
