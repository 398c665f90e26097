"""One table of cases sent through REST and GraphQL alike: the same answers, the same error
codes, messages and details, and nothing changed by a refusal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.snapshot import everything
from tests.graphql.client import PAYLOAD, TICKET, GraphQL, operation, payload, typed
from tests.graphql.rest_shape import rest_json, rest_shape

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Case:
    """A request as REST sends it (``path`` under the tournament, or from ``/api/v1/``) and as
    GraphQL sends it (``mutation`` and its arguments); ``who`` is the caller."""

    name: str
    who: str
    path: str
    body: dict[str, Any]
    mutation: str
    args: dict[str, Any] = field(default_factory=dict)
    method: str = "post"


@dataclass
class Lobby:
    """A 3-seat lobby: the host, a guest, one seat free; and a seat of another tournament."""

    id: int
    code: str
    tokens: dict[str, str | None]


def _create(client: APIClient, name: str = "Ann", seats: int = 3) -> dict[str, Any]:
    body = {"name": name, "seats": seats, "seed": 5}
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201
    created: dict[str, Any] = response.json()
    return created


def lobby() -> Lobby:
    client = APIClient()
    ticket = _create(client)
    joined = client.post(
        "/api/v1/tournaments/join/", {"code": ticket["code"], "name": "Bob"}, format="json"
    ).json()
    other = _create(client, name="Zed", seats=1)
    tokens = {
        "host": ticket["seat"]["token"],
        "guest": joined["seat"]["token"],
        "other": other["seat"]["token"],
        "spectator": None,
        "bad": "not-a-token",
    }
    return Lobby(ticket["id"], ticket["code"], tokens)


LOBBY_CASES = [
    Case("bots beyond the free seats", "host", "bots/", {"count": 2}, "addBots", {"count": 2}),
    Case("bots: a count out of range", "host", "bots/", {"count": 9}, "addBots", {"count": 9}),
    Case("bots by a guest", "guest", "bots/", {"count": 1}, "addBots", {"count": 1}),
    Case("bots by a spectator", "spectator", "bots/", {"count": 1}, "addBots", {"count": 1}),
    Case("bots with a bad token", "bad", "bots/", {"count": 1}, "addBots", {"count": 1}),
    Case("reclaim a seat in the lobby", "guest", "reclaim/", {}, "reclaimSeat"),
    Case("start with a seat open", "host", "start/", {}, "startTournament"),
    Case("start by another tournament", "other", "start/", {}, "startTournament"),
    Case("the host leaves", "host", "leave/", {}, "leaveTournament"),
    Case("a spectator leaves", "spectator", "leave/", {}, "leaveTournament"),
    Case("kick the host", "host", "kick/", {"seat": 0}, "kickSeat", {"seat": 0}),
    Case("kick nobody", "host", "kick/", {"seat": 5}, "kickSeat", {"seat": 5}),
    Case("kick out of range", "host", "kick/", {"seat": 99}, "kickSeat", {"seat": 99}),
    Case("kick by a guest", "guest", "kick/", {"seat": 1}, "kickSeat", {"seat": 1}),
    Case("cancel by a guest", "guest", "cancel/", {}, "cancelTournament"),
    Case("draw in the lobby", "host", "draft/draw/", {}, "draw"),
    Case(
        "choose by a spectator",
        "spectator",
        "draft/choose/",
        {"option": 0},
        "choose",
        {"option": 0},
    ),
    Case("pick a negative uid", "host", "draft/pick/", {"card": -1}, "pick", {"card": -1}),
    Case("remove in the lobby", "guest", "deck/remove/", {"cards": [1]}, "remove", {"cards": [1]}),
    Case("finish in the lobby", "host", "deck/finish/", {}, "finish"),
    Case(
        "settings by a spectator",
        "spectator",
        "seat/",
        {"answers_live": False},
        "seatSettings",
        {"answersLive": False},
        method="patch",
    ),
]

SUCCESS_CASES = [
    Case("the host adds a bot", "host", "bots/", {"count": 1}, "addBots", {"count": 1}),
    Case(
        "the host adds a champion bot",
        "host",
        "bots/",
        {"count": 1, "level": "champion"},
        "addBots",
        {"count": 1, "level": "CHAMPION"},
    ),
    Case("the host kicks the guest", "host", "kick/", {"seat": 1}, "kickSeat", {"seat": 1}),
    Case("the guest leaves", "guest", "leave/", {}, "leaveTournament"),
    Case("the host cancels", "host", "cancel/", {}, "cancelTournament"),
    Case(
        "the guest's settings",
        "guest",
        "seat/",
        {"answers_live": False},
        "seatSettings",
        {"answersLive": False},
        method="patch",
    ),
]


def rest(case: Case, at: Lobby) -> tuple[int, Any]:
    token = at.tokens[case.who]
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    send = getattr(APIClient(), case.method)
    response = send(
        f"/api/v1/tournaments/{at.id}/{case.path}", case.body, format="json", headers=headers
    )
    return response.status_code, response.json()


def graphql(case: Case, at: Lobby) -> dict[str, Any]:
    token = at.tokens[case.who]
    gql = GraphQL(f"Bearer {token}" if token else None)
    return payload(gql, case.mutation, PAYLOAD, tournamentId=at.id, **case.args)


def test_an_unknown_bot_level_is_refused_by_both_with_a_code(catalogue: Any) -> None:
    """REST's free text is refused by the service (``bad_bot_level``); GraphQL's ``BotLevel``
    enum refuses it before any resolver runs (``invalid_variables``)."""
    at = lobby()
    case = Case("bots of an unknown level", "host", "bots/", {"count": 1, "level": "godlike"}, "")
    assert rest(case, at)[1]["code"] == "bad_bot_level"
    gql = GraphQL(f"Bearer {at.tokens['host']}")
    sent = {"input": {"tournamentId": at.id, "count": 1, "level": "godlike"}}
    body = gql.post(operation("addBots", PAYLOAD), **sent)
    assert [e["extensions"]["code"] for e in body["errors"]] == ["invalid_variables"]


@pytest.mark.parametrize("case", LOBBY_CASES, ids=lambda c: c.name)
def test_a_refusal_is_the_same_through_rest_and_graphql(catalogue: Any, case: Case) -> None:
    at = lobby()
    before = everything()
    status, body = rest(case, at)
    assert status >= 400, body
    assert everything() == before
    answer = graphql(case, at)
    assert everything() == before
    assert answer["tournament"] is None
    assert answer["errors"] == typed(body)


@pytest.mark.parametrize("case", SUCCESS_CASES, ids=lambda c: c.name)
def test_an_action_answers_the_same_view_through_rest_and_graphql(
    catalogue: Any, case: Case
) -> None:
    """Two identical lobbies, one acted on by REST and one by GraphQL, end alike."""
    by_rest, by_graphql = lobby(), lobby()
    status, body = rest(case, by_rest)
    assert status == 200, body
    answer = graphql(case, by_graphql)
    assert answer["errors"] == []
    assert comparable(rest_shape(answer["tournament"])) == comparable(rest_json(body))


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what tells two identical tournaments apart (id, room code, commitment and
    the nonce a cancel reveals)."""
    return {
        **view,
        "id": None,
        "code": None if view["code"] is None else "code",
        "fairness": {**view["fairness"], "commitment": None, "revealed_nonce": None},
    }


def test_create_and_join_refuse_alike(catalogue: Any) -> None:
    at = lobby()
    client = APIClient()
    cases: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
        ("tournaments/", {"name": "A", "seats": 9}, "createTournament", {"name": "A", "seats": 9}),
        ("tournaments/", {"seats": 2}, "createTournament", {"seats": 2}),
        (
            "tournaments/",
            {"name": "A", "seats": 2, "additional_sets": ["Castle"]},
            "createTournament",
            {"name": "A", "seats": 2, "additionalSets": ["Castle"]},
        ),
        (
            "tournaments/join/",
            {"code": "NOPE", "name": "C"},
            "joinTournament",
            {"code": "NOPE", "name": "C"},
        ),
        (
            "tournaments/join/",
            {"code": at.code, "name": "bob"},
            "joinTournament",
            {"code": at.code, "name": "bob"},
        ),
    ]
    for path, body, mutation, args in cases:
        before = everything()
        response = client.post(f"/api/v1/{path}", body, format="json")
        assert response.status_code >= 400
        answer = payload(GraphQL(), mutation, TICKET, **args)
        assert everything() == before
        assert answer["ticket"] is None
        assert answer["errors"] == typed(response.json()), path


def running() -> Lobby:
    """A 2-seat tournament in its first Deck Phase: the host and a bot."""
    client = APIClient()
    ticket = _create(client, seats=2)
    headers = {"Authorization": f"Bearer {ticket['seat']['token']}"}
    tid = ticket["id"]
    client.post(f"/api/v1/tournaments/{tid}/bots/", {"count": 1}, format="json", headers=headers)
    assert client.post(f"/api/v1/tournaments/{tid}/start/", headers=headers).status_code == 200
    tokens = {"host": ticket["seat"]["token"], "spectator": None, "bad": "x"}
    return Lobby(tid, ticket["code"], tokens)


DECK_CASES = [
    Case("a stale version", "host", "draft/draw/", {"version": 999}, "draw", {"version": 999}),
    Case("pick before drawing", "host", "draft/pick/", {"card": 1}, "pick", {"card": 1}),
    Case("redraw before drawing", "host", "draft/redraw/", {}, "redraw"),
    Case(
        "resolve with nothing pending",
        "host",
        "draft/resolve/",
        {"cards": []},
        "resolve",
        {"cards": []},
    ),
    Case("an option out of range", "host", "draft/choose/", {"option": 7}, "choose", {"option": 7}),
    Case(
        "remove a card not in the deck",
        "host",
        "deck/remove/",
        {"cards": [99999]},
        "remove",
        {"cards": [99999]},
    ),
    Case("start again", "host", "start/", {}, "startTournament"),
    Case("draw as a spectator", "spectator", "draft/draw/", {}, "draw"),
    Case("kick once running", "host", "kick/", {"seat": 1}, "kickSeat", {"seat": 1}),
]


@pytest.mark.parametrize("case", DECK_CASES, ids=lambda c: c.name)
def test_a_deck_phase_refusal_is_the_same_through_rest_and_graphql(
    catalogue: Any, case: Case
) -> None:
    at = running()
    before = everything()
    status, body = rest(case, at)
    assert status >= 400, body
    answer = graphql(case, at)
    assert everything() == before
    assert answer["tournament"] is None
    assert answer["errors"] == typed(body)


def test_a_deck_phase_action_answers_the_same_view(catalogue: Any) -> None:
    by_rest, by_graphql = running(), running()
    draw = Case("draw", "host", "draft/draw/", {}, "draw")
    status, body = rest(draw, by_rest)
    assert status == 200, body
    answer = graphql(draw, by_graphql)
    assert answer["errors"] == []
    assert comparable(rest_shape(answer["tournament"])) == comparable(rest_json(body))
