"""The card list reads through strawberry-django's optimizer: a page costs the same SQL
statements whatever its length, each reading only the columns and joins its query selects."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import CardSet
from tests.graphql.client import GraphQL, edges, nodes

ALL = (
    "id databaseId key set setId box name level power powerIsRound copies copiesPerStarterDeck "
    "keyword timing effect confidence note effectCode effectParams translations retired curated"
)
BOUND = 2  # the count and the page


def cold_page(size: int, fields: str = ALL) -> tuple[list[str], dict[str, Any]]:
    """A page of ``size`` cards read afresh (a new catalogue version), and its statements."""
    CardSet.objects.earliest("pk").save()
    with CaptureQueriesContext(connection) as captured:
        page = GraphQL().data("{ cards" + edges(fields, f"(first: {size})") + " }")
    return [query["sql"] for query in captured.captured_queries], page


@pytest.mark.parametrize("size", [5, 50])
def test_a_page_of_cards_costs_the_same_statements_whatever_its_length(
    catalogue: Any, django_assert_max_num_queries: Any, size: int
) -> None:
    CardSet.objects.earliest("pk").save()  # nothing cached
    with django_assert_max_num_queries(BOUND):
        page = GraphQL().data("{ cards" + edges(ALL, f"(first: {size})") + " }")
    found = nodes(page["cards"])
    assert len(found) == size
    assert all(card["key"] == f"{card['set']}/{card['name']}" for card in found[:1])


def test_five_and_fifty_cards_send_the_same_statements(catalogue: Any) -> None:
    (five, _five), (fifty, page) = cold_page(5), cold_page(50)
    assert len(five) == len(fifty) == BOUND
    assert len({card["setId"] for card in nodes(page["cards"])}) > 1  # several sets joined


def test_the_page_reads_only_the_columns_its_query_selects(catalogue: Any) -> None:
    (_count, bare), _page = cold_page(50, "databaseId level")
    (_count, joined), _page = cold_page(50, "key box")
    assert '"effect_params"' not in bare and '"cards_cardset"."box"' not in bare
    assert '"cards_cardset"."box"' in joined and '"effect_params"' not in joined


def test_a_page_read_again_is_the_cached_one(catalogue: Any) -> None:
    cold_page(50)
    with CaptureQueriesContext(connection) as captured:
        GraphQL().data("{ cards" + edges(ALL, "(first: 50)") + " }")
    assert len(captured) == 0


def test_a_page_asked_with_variables_is_cached_for_their_values(catalogue: Any) -> None:
    query = "query($n: Int, $level: CardLevel) { cards" + edges("key", "(first: $n, level: $level)")
    query += " }"
    counted = []
    for n, level in ((5, "A"), (5, "A"), (6, "A"), (5, "B")):
        with CaptureQueriesContext(connection) as captured:
            page = GraphQL().data(query, n=n, level=level)
        counted.append((len(captured), len(nodes(page["cards"]))))
    assert counted == [(BOUND, 5), (0, 5), (BOUND, 6), (BOUND, 5)]


def test_another_selection_reads_its_own_page(catalogue: Any) -> None:
    """A page cached for one selection is never answered to another, which reads its own."""
    cold_page(5, "databaseId level")
    with CaptureQueriesContext(connection) as captured:
        page = GraphQL().data("{ cards" + edges("key box", "(first: 5)") + " }")
    assert len(captured) == BOUND and '"cards_cardset"."box"' in captured[-1]["sql"]
    assert all("/" in card["key"] and card["box"] for card in nodes(page["cards"]))
