"""GraphQL calls of the league tests: queries selecting every field, and mutations by name."""

from __future__ import annotations

from typing import Any

from tests.graphql.client import GraphQL

SKILL = "mu sigma ordinal"
SEASON = """id name startsOn endsOn scoring botsAllowed adviceAllowed tournaments archived joinCode
  options { basicSet additionalSets beachCup winterPark robotDifficulty }"""
LEAGUE = f"slug name description public members seasons {{ {SEASON} }}"
STANDINGS = f"""season kind tiebreak rows {{ rank member kind points wins finals fans played vector
  decidedBy rating {{ {SKILL} }} }}"""
HISTORY = f"""member kind rating {{ {SKILL} }}
  tournaments {{ tournament season place points fans champion finalist
                 rating {{ {SKILL} change }} }}
  corrections {{ id kind reason season tournament member match places createdAt }}"""
ERROR = "... on Error { code message details }"
PAYLOADS = {
    "createLeague": f"... on LeagueView {{ {LEAGUE} }}",
    "createSeason": f"... on SeasonView {{ {SEASON} }}",
    "createMember": "... on NewMember { member kind claimCode }",
    "claimMember": "... on MemberToken { member token }",
    "openSeasonTournament": "... on Ticket { id code seat token }",
    "hostSeasonTournament": "... on Ticket { id code seat token }",
    "joinSeasonTournament": "... on Ticket { id code seat token }",
    "createWebhook": "... on Webhook { id url events secret }",
}


def kind(value: Any) -> str:
    """A variable's GraphQL type (non-null: it may fill a nullable argument too)."""
    if isinstance(value, bool):
        return "Boolean!"
    if isinstance(value, int):
        return "Int!"
    if isinstance(value, dict):
        return "JSON!"
    if isinstance(value, list):
        return "[String!]!"
    return "String!"


def call(gql: GraphQL, field: str, selection: str, operation: str = "query", **args: Any) -> Any:
    """``field(args) { selection }`` as one operation; the whole response body."""
    declared = ", ".join(f"${name}: {kind(value)}" for name, value in args.items())
    passed = ", ".join(f"{name}: ${name}" for name in args)
    head = f"{operation}({declared})" if args else operation
    body = f"({passed})" if args else ""
    return gql.post(f"{head} {{ result: {field}{body} {{ {selection} }} }}", **args)


def mutate(gql: GraphQL, mutation: str, **args: Any) -> dict[str, Any]:
    selection = f"__typename {PAYLOADS[mutation]} {ERROR}"
    body = call(gql, mutation, selection, "mutation", **args)
    assert "errors" not in body, body
    result: dict[str, Any] = body["data"]["result"]
    return result
