"""A GraphQL client over HTTP (Django's test client), and a seat that plays through it."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tests.tournaments.play import ROUND_GUARD

# Every field of the tournament view: what a hand-written "select everything" query asks for.
CARD = "uid card"
TOURNAMENT_FIELDS = f"""
  id roomCode status round isFinal version phaseDeadline finalists winners
  options {{ seatCount basicSet additionalSets beachCup winterMode robotDifficulty soloChallenge
             deckDeadlineSeconds answerDeadlineSeconds }}
  parks {{ name winter }}
  plan {{ park a b }}
  seats {{ number name kind isHost tokens deckSize finished autoPlayed botLevel dropped }}
  trophies {{ park round seat toBox fans }}
  standings {{ seat fans fansComplete trophies highestRound }}
  fairness {{ commitment revealedSeed revealedNonce }}
  you {{
    seat name version answersLive actions deck {{ {CARD} }}
    turn {{ options option picksLeft redrawUsed finished autoPlayed
            display {{ {CARD} }} picked {{ {CARD} }}
            pending {{ kind card count offered {{ {CARD} }} eligible {{ {CARD} }} optional }} }}
  }}
"""
ERROR_FIELDS = "... on Error { code message details }"
PAYLOAD = f"__typename ... on TournamentView {{ {TOURNAMENT_FIELDS} }} {ERROR_FIELDS}"


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


def mutate(gql: GraphQL, mutation: str, args: str = "", **variables: Any) -> dict[str, Any]:
    """Run one mutation whose payload is a tournament (or an ``Error``)."""
    declared = ", ".join(f"${name}: {kind}" for name, kind in _kinds(variables).items())
    call = ", ".join(f"{name}: ${name}" for name in variables)
    head = f"mutation({declared})" if declared else "mutation"
    query = f"{head} {{ result: {mutation}({call}) {{ {PAYLOAD} }} }}"
    result: dict[str, Any] = gql.data(query, **variables)["result"]
    return result


def _kinds(variables: dict[str, Any]) -> dict[str, str]:
    def kind(value: Any) -> str:
        if isinstance(value, bool):
            return "Boolean!"
        if isinstance(value, int):
            return "Int!"
        if isinstance(value, list):
            return "[Int!]!"
        return "String!"

    return {name: kind(value) for name, value in variables.items()}


TICKET = "__typename ... on Ticket { id code seat token } ... on Error { code message details }"


def create(gql: GraphQL, **options: Any) -> dict[str, Any]:
    args = {"seats": 2, "name": "Host", **options}
    declared = {
        "seats": "Int!",
        "name": "String",
        "seed": "String",
        "basicSet": "String",
        "beachCup": "Boolean",
        "winterPark": "String",
        "additionalSets": "[String!]",
    }
    head = ", ".join(f"${k}: {declared[k]}" for k in args)
    call = ", ".join(f"{k}: ${k}" for k in args)
    query = f"mutation({head}) {{ result: createTournament({call}) {{ {TICKET} }} }}"
    result: dict[str, Any] = gql.data(query, **args)["result"]
    return result


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
        assert result["__typename"] == "TournamentView", result
        return result

    def step(self) -> bool:
        """The next Deck Phase step (the REST player's policy); ``False`` when none."""
        view = self.view()
        actions, turn = view["you"]["actions"], view["you"]["turn"]
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
            if view["status"] == "finished":
                return view
            if not self.step():
                raise AssertionError(f"stuck: {view}")
        raise AssertionError("the tournament did not end")
