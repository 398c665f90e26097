"""Every mutation input that names an object GraphQL shows as a ``Node`` takes its global ``id``
(issue 41); the plain number (its ``databaseId``) still works until the next release
(deprecated). Anything else, a global id of another type included, is refused as ``invalid``
naming the field, and changes nothing."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from server.schema import schema
from tests.api.snapshot import everything
from tests.graphql.client import GraphQL, create, mutate, payload
from tests.leagues.helpers import create_organizer, league_with_season

pytestmark = pytest.mark.django_db(transaction=True)


def gid(kind: str, number: int | str) -> str:
    return base64.b64encode(f"{kind}:{number}".encode()).decode()


def _host() -> tuple[GraphQL, int, str]:
    ticket = create(GraphQL(), seats=3)
    host = GraphQL(f"Bearer {ticket['token']}")
    query = "query($id: Int!) { tournament(id: $id) { id } }"
    global_id: str = host.data(query, id=ticket["id"])["tournament"]["id"]
    return host, ticket["id"], global_id


def _seats(host: GraphQL, number: int) -> int:
    view = host.data("query($id: Int!) { tournament(id: $id) { seats { totalCount } } }", id=number)
    found: int = view["tournament"]["seats"]["totalCount"]
    return found


def test_a_mutation_takes_the_tournaments_global_id(catalogue: Any) -> None:
    host, number, global_id = _host()
    assert global_id == gid("TournamentView", number)
    answer = mutate(host, "addBots", tournamentId=global_id, count=1)
    assert answer["errors"] == [], answer
    assert _seats(host, number) == 2


def test_the_plain_number_still_works(catalogue: Any) -> None:
    host, number, _global_id = _host()
    assert mutate(host, "addBots", tournamentId=number, count=1)["errors"] == []
    assert mutate(host, "addBots", tournamentId=str(number), count=1)["errors"] == []
    assert _seats(host, number) == 3


@pytest.mark.parametrize(
    "named",
    [
        lambda n: gid("MatchView", n),  # a global id of another type
        lambda n: gid("TournamentView", f"{n}:0"),
        lambda n: "not an id",
        lambda n: -n,
        lambda n: 2**40,
    ],
)
def test_anything_else_is_invalid_naming_the_field_and_changes_nothing(
    catalogue: Any, named: Any
) -> None:
    host, number, _global_id = _host()
    before = everything()
    answer = mutate(host, "addBots", tournamentId=named(number), count=1)
    assert answer["tournament"] is None
    [error] = answer["errors"]
    assert (error["code"], error["field"]) == ("invalid", ["tournamentId"])
    assert everything() == before


def test_a_league_mutation_takes_a_seasons_global_id(catalogue: Any) -> None:
    token = create_organizer("Org")
    slug, season = league_with_season(APIClient(), token)
    organizer = GraphQL(f"Token {token}")
    renamed = payload(
        organizer,
        "updateSeason",
        "season { databaseId name } errors { code field }",
        slug=slug,
        seasonId=gid("SeasonView", season),
        name="Summer",
    )
    assert renamed == {"season": {"databaseId": season, "name": "Summer"}, "errors": []}
    wrong = payload(
        organizer,
        "updateSeason",
        "season { name } errors { code field }",
        slug=slug,
        seasonId=gid("LeagueView", season),
        name="Autumn",
    )
    assert wrong == {"season": None, "errors": [{"code": "invalid", "field": ["seasonId"]}]}


def test_no_mutation_input_takes_an_id_as_a_plain_int() -> None:
    """An input field naming an object (``tournamentId``, ``matchId``, ``seasonId``,
    ``tournament``, ``season``, ``match``) is an ``ID``; what is left as an ``Int`` is a
    position or a count (a seat's number, a card's place in the tournament)."""
    text = str(schema)
    named = re.compile(r"^\s+(tournamentId|matchId|seasonId|tournament|season|match): (\w+)", re.M)
    inputs = re.findall(r"^input \w+ \{.*?^\}", text, re.M | re.S)
    kinds = {kind for body in inputs for _name, kind in named.findall(body)}
    assert kinds == {"ID"}


def test_a_tournament_list_item_is_a_node_whose_id_a_mutation_takes(catalogue: Any) -> None:
    host, number, _global_id = _host()
    listed = host.data("{ tournaments(first: 1) { edges { node { id databaseId seatsTaken } } } }")
    [item] = [edge["node"] for edge in listed["tournaments"]["edges"]]
    assert (item["id"], item["databaseId"]) == (gid("TournamentListItem", number), number)
    query = (
        "query($id: ID!) { node(id: $id) { __typename ... on TournamentListItem { seatsTaken } } }"
    )
    found = host.data(query, id=item["id"])["node"]
    assert found == {"__typename": "TournamentListItem", "seatsTaken": 1}
    assert mutate(host, "addBots", tournamentId=item["id"], count=1)["errors"] == []
    assert _seats(host, number) == 2
