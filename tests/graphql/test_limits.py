"""Protection: too deep, too many aliases, too many tokens, too big a page — each refused with
a code before any SQL runs — and the SQL each main query sends, pinned (no query per row)."""

from __future__ import annotations

from typing import Any

import pytest
from graphql import get_introspection_query
from rest_framework.test import APIClient

from apikit.graphql_limits import MAX_ALIASES, MAX_DEPTH
from matches.models import Match
from server.schema import MAX_TOKENS
from tests.graphql.client import TOURNAMENT_FIELDS, GraphQL
from tests.tournaments.play import Player, play_to_the_end

pytestmark = pytest.mark.django_db


def codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


def deep(levels: int) -> str:
    """A query ``levels`` fields deep (below the schema's leaves, so also otherwise invalid)."""
    inner = "uid"
    for n in range(levels - 5):
        inner = f"f{n} {{ {inner} }}"
    return f"{{ tournament(id: 1) {{ you {{ turn {{ pending {{ {inner} }} }} }} }} }}"


def test_a_query_deeper_than_the_limit_is_refused_unrun(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        body = GraphQL().post(deep(MAX_DEPTH + 2))
    assert "query_too_deep" in codes(body)
    assert body.get("data") is None


def test_introspection_nesting_without_end_is_refused_unrun(
    django_assert_num_queries: Any,
) -> None:
    cycle = "name"
    for _ in range(6):
        cycle = f"fields {{ type {{ {cycle} }} }}"
    with django_assert_num_queries(0):
        body = GraphQL().post(f"{{ __schema {{ types {{ {cycle} }} }} }}")
    assert set(codes(body)) == {"query_too_deep"}


def test_the_standard_introspection_query_is_within_the_limits() -> None:
    body = GraphQL().post(get_introspection_query(descriptions=True))
    assert "errors" not in body
    assert body["data"]["__schema"]["queryType"]["name"] == "Query"


def test_too_many_aliases_are_refused_unrun(django_assert_num_queries: Any) -> None:
    fields = " ".join(f"a{n}: tournaments {{ totalCount }}" for n in range(MAX_ALIASES + 1))
    with django_assert_num_queries(0):
        body = GraphQL().post(f"{{ {fields} }}")
    assert codes(body) == ["too_many_aliases"]


def test_a_query_too_wide_is_refused_unread(django_assert_num_queries: Any) -> None:
    fields = " ".join(["totalCount"] * MAX_TOKENS)
    with django_assert_num_queries(0):
        body = GraphQL().post(f"{{ tournaments {{ {fields} }} }}")
    assert codes(body) == ["too_many_tokens"]


def test_a_page_too_big_is_invalid(db: None) -> None:
    body = GraphQL().post("{ tournaments(first: 101) { totalCount } }")
    assert codes(body) == ["invalid"]
    body = GraphQL().post("{ cards(first: 0) { totalCount } }")
    assert codes(body) == ["invalid"]


def test_a_malformed_query_is_invalid_query() -> None:
    assert codes(GraphQL().post("{ tournaments { nope } }")) == ["invalid_query"]
    assert codes(GraphQL().post("{ tournaments {")) == ["invalid_query"]


def test_a_refused_read_carries_rests_code_and_details(catalogue: Any) -> None:
    body = GraphQL().post('{ cards(set: "Nowhere") { totalCount } }')
    rest = APIClient().get("/api/v1/cards/?set=Nowhere").json()
    assert codes(body) == [rest["code"]] == ["unknown_set"]
    assert body["errors"][0]["extensions"]["details"] == rest["details"]
    assert body["errors"][0]["message"] == rest["message"]
    assert codes(GraphQL().post("{ tournament(id: 999) { id } }")) == ["not_found"]
    assert codes(GraphQL().post('{ tournament(code: "NOPE") { id } }')) == ["unknown_code"]
    assert codes(GraphQL("Bearer wrong").post("{ tournaments { totalCount } }")) == ["bad_token"]
    assert codes(GraphQL("Basic x").post("{ tournaments { totalCount } }")) == ["bad_token"]


# REST's filter, and its GraphQL argument's type: a closed set is an enum (its member names
# upper-cased), anything else a string the FilterSet checks.
CARD_FILTERS = [
    ("set", "Castle", "String", "Castle"),
    ("level", "B", "CardLevel", "B"),
    ("search", "fan", "String", "fan"),
    ("keyword", "From the bench", "String", "From the bench"),
    ("box", "beach_cup", "Box", "BEACH_CUP"),
    ("timing", "flag_loss", "CardTiming", "FLAG_LOSS"),
]


def test_the_cards_filter_as_rest_filters(catalogue: Any) -> None:
    for name, value, kind, given in CARD_FILTERS:
        rest = APIClient().get("/api/v1/cards/", {name: value}).json()
        found = GraphQL().data(
            f"query($v: {kind}!) {{ cards({name}: $v, first: 100) "
            "{ totalCount edges { node { databaseId key } } } }",
            v=given,
        )["cards"]
        assert found["totalCount"] == len(rest) > 0
        assert [e["node"] for e in found["edges"]] == [
            {"databaseId": c["id"], "key": c["key"]} for c in rest[:100]
        ]
    one = GraphQL().data('{ cards(key: "Castle/Dragon") { edges { node { key set level } } } }')
    assert [e["node"]["key"] for e in one["cards"]["edges"]] in ([], ["Castle/Dragon"])


def test_pages_follow_their_cursors(catalogue: Any) -> None:
    seen: list[int] = []
    after = None
    while True:
        page = GraphQL().data(
            "query($after: String) { cards(first: 50, after: $after) "
            "{ totalCount pageInfo { hasNextPage endCursor } edges { node { databaseId } } } }",
            after=after,
        )["cards"]
        seen += [edge["node"]["databaseId"] for edge in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    rest = APIClient().get("/api/v1/cards/").json()
    assert seen == [card["id"] for card in rest]
    assert codes(GraphQL().post('{ cards(after: "bm9wZQ==") { totalCount } }')) == ["invalid"]


@pytest.fixture
def finished(catalogue: Any, transactional_db: None) -> Player:
    """A finished 4-seat tournament: one human (the host), three bots, 15 matches."""
    return play_to_the_end(seats=4, seed=11)


MATCH = (
    "id status winner seats { number side } question { seq } "
    "events(first: 500) { edges { node { seq kind } } }"
)
READS = [
    # (query, queries as a spectator, as the seat: its token is one lookup more)
    (f"{{ tournament(id: T) {{ {TOURNAMENT_FIELDS} }} }}", 1, 2),
    ("{ tournaments { totalCount edges { node { id host } } } }", 2, 3),
    # REST's cached list: the tournament's stamp alone (tests/graphql/test_list_statements.py).
    ("{ matches(tournamentId: T) { edges { node { id status winner } } } }", 1, 2),
    (f"{{ match(id: M) {{ {MATCH} }} }}", 1, 2),  # a finished match: its frames cached per side
    # The catalogue's lists are cached as REST's are (per catalogue version, language and
    # filters); it reads a token only to refuse a bad one (as REST does).
    ("{ cards(first: 100) { totalCount edges { node { key } } } }", 0, 1),
    ("{ cardSets { edges { node { name designs cards { edges { node { key } } } } } } }", 0, 1),
]


def test_the_main_queries_send_a_fixed_number_of_sql_queries(
    finished: Player, django_assert_num_queries: Any
) -> None:
    """One finished tournament for every query (playing it is the slow part)."""
    match = Match.objects.filter(tournament_id=finished.id).order_by("pk").last()
    assert match is not None and Match.objects.filter(tournament_id=finished.id).count() == 15
    for query, spectator, seat in READS:
        text = query.replace("T)", f"{finished.id})").replace("M)", f"{match.pk})")
        for gql, expected in ((GraphQL(), spectator), (GraphQL(f"Bearer {finished.token}"), seat)):
            gql.data(text)  # warm the per-tournament caches
            with django_assert_num_queries(expected):
                gql.data(text)
