"""A GraphQL client over HTTP (Django's test client), and a seat that plays through it."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.test import Client

from apikit.graphql import user_errors
from tests.graphql.rest_shape import enum_value
from tests.tournaments.play import ROUND_GUARD


def edges(fields: str, arguments: str = "") -> str:
    """A connection's selection of ``fields`` of each node (``arguments``: e.g. ``(first: 5)``)."""
    return f"{arguments} {{ edges {{ node {{ {fields} }} }} }}"


def nodes(connection: dict[str, Any]) -> list[dict[str, Any]]:
    """The nodes of a connection's answer."""
    return [edge["node"] for edge in connection["edges"]]


# Every field of the tournament view: what a hand-written "select everything" query asks for.
CARD = "uid card"
TOURNAMENT_FIELDS = f"""
  databaseId title roomCode status round isFinal version releasedSeq league phaseDeadline finalists
  winners
  options {{ seatCount basicSet additionalSets beachCup winterMode robotDifficulty soloChallenge
             deckDeadlineSeconds answerDeadlineSeconds spectatorChat }}
  parks {{ name winter }}
  plan {{ park a b }}
  seats {edges("number name kind isHost tokens deckSize finished autoPlayed botLevel dropped")}
  trophies {edges("park round seat toBox fans")}
  standings {edges("seat fans fansComplete trophies highestRound")}
  fairness {{ commitment revealedSeed revealedNonce }}
  you {{
    seat name version answersLive actions deck {{ {CARD} }}
    turn {{ options option picksLeft redrawUsed finished autoPlayed
            display {{ {CARD} }} picked {{ {CARD} }}
            pending {{ kind card count offered {{ {CARD} }} eligible {{ {CARD} }} optional }} }}
  }}
"""
ERRORS = "errors { code message field details { name value values } }"
PAYLOAD = f"tournament {{ {TOURNAMENT_FIELDS} }} {ERRORS}"
TICKET = f"ticket {{ id code seat token }} {ERRORS}"


class GraphQL:
    """Posts GraphQL operations to ``/graphql/`` with an optional ``Authorization``."""

    def __init__(self, authorization: str | None = None) -> None:
        self.client = Client()
        self.authorization = authorization

    def post(self, query: str, **variables: Any) -> dict[str, Any]:
        headers = {"Authorization": self.authorization} if self.authorization else {}
        response = self.client.post(
            "/graphql/",
            {"query": query, "variables": variables},
            content_type="application/json",
            headers=headers,
        )
        assert response.status_code == 200, response.content
        body: dict[str, Any] = response.json()
        return body

    def data(self, query: str, **variables: Any) -> dict[str, Any]:
        body = self.post(query, **variables)
        assert "errors" not in body, body["errors"]
        found: dict[str, Any] = body["data"]
        return found


def operation(mutation: str, selection: str) -> str:
    """``mutation``'s document: its one ``input`` as the variable ``$input``."""
    kind = f"{mutation[:1].upper()}{mutation[1:]}Input"
    return f"mutation($input: {kind}!) {{ result: {mutation}(input: $input) {{ {selection} }} }}"


def payload(gql: GraphQL, mutation: str, selection: str, **given: Any) -> dict[str, Any]:
    """Run one mutation with ``given`` as its input; its payload."""
    result: dict[str, Any] = gql.data(operation(mutation, selection), input=given)["result"]
    return result


def mutate(gql: GraphQL, mutation: str, **given: Any) -> dict[str, Any]:
    """Run one mutation whose payload carries a tournament (``tournament`` and ``errors``)."""
    return payload(gql, mutation, PAYLOAD, **given)


def typed(body: dict[str, Any]) -> list[dict[str, Any]]:
    """REST's error body as a payload's ``errors`` carry it (``apikit.graphql.user_errors``)."""
    return [dataclasses.asdict(error) for error in user_errors(body)]


def create(gql: GraphQL, **options: Any) -> dict[str, Any]:
    """``createTournament`` (2 seats, host "Host" unless told): its ticket."""
    made = payload(gql, "createTournament", TICKET, **{"seats": 2, "name": "Host", **options})
    assert made["errors"] == [], made
    ticket: dict[str, Any] = made["ticket"]
    return ticket


class Seat:
    """One human seat that plays its Deck Phases through GraphQL mutations only."""

    def __init__(self, tournament_id: int, token: str) -> None:
        self.id = tournament_id
        self.gql = GraphQL(f"Bearer {token}")

    def view(self) -> dict[str, Any]:
        query = f"query($id: Int!) {{ tournament(id: $id) {{ {TOURNAMENT_FIELDS} }} }}"
        found: dict[str, Any] = self.gql.data(query, id=self.id)["tournament"]
        return found

    def act(self, mutation: str, **variables: Any) -> dict[str, Any]:
        result = mutate(self.gql, mutation, tournamentId=self.id, **variables)
        assert result["errors"] == [], result
        view: dict[str, Any] = result["tournament"]
        return view

    def step(self) -> bool:
        """The next Deck Phase step (the REST player's policy); ``False`` when none."""
        view = self.view()
        actions = {enum_value(action) for action in view["you"]["actions"]}  # DRAW: draw
        turn = view["you"]["turn"]
        version = view["you"]["version"]
        if not actions:
            return False
        if "resolve" in actions:
            pending = turn["pending"]
            keep = [pending["offered"][0]["uid"]] if pending["kind"] == "draw_keep" else []
            self.act("resolve", cards=keep, version=version)
        elif "choose" in actions:
            self.act("choose", option=len(turn["options"]) - 1, version=version)
        elif "draw" in actions:
            self.act("draw", version=version)
        elif "pick" in actions:
            self.act("pick", card=turn["display"][0]["uid"], version=version)
        else:
            self.act("finish", version=version)
        return True

    def play_to_the_end(self) -> dict[str, Any]:
        for _ in range(ROUND_GUARD):
            view = self.view()
            if view["status"] == "FINISHED":
                return view
            if not self.step():
                raise AssertionError(f"stuck: {view}")
        raise AssertionError("the tournament did not end")
