"""GraphQL calls of the league tests: queries selecting every field, and mutations by name."""

from __future__ import annotations

from typing import Any

from tests.graphql.client import ERRORS, GraphQL, payload

SKILL = "mu sigma ordinal"


def page(field: str, selection: str) -> str:
    """A connection's first 100 items (``rest_shape`` reads ``edges`` as REST's list)."""
    return f"{field}(first: 100) {{ edges {{ node {{ {selection} }} }} }}"


SEASON = """databaseId name startsOn endsOn scoring botsAllowed adviceAllowed tournaments archived
  closed closures(first: 5) { edges { node { action by at reason } } }
  joinCode options { basicSet additionalSets beachCup winterPark robotDifficulty }"""
LEAGUE = f"slug name description public members {page('seasons', SEASON)}"
ROW = f"""rank member kind points wins finals fans played vector decidedBy rating {{ {SKILL} }}"""
CORRECTION = "id databaseId kind reason season tournament member match places createdAt"
CORRECTIONS = page("corrections", CORRECTION)
STANDINGS = f"season kind tiebreak {page('rows', ROW)} {CORRECTIONS}"
HISTORY_ROW = f"""tournament title season place points fans champion finalist
  corrections {{ {CORRECTION} }}
  rating {{ {SKILL} change }}"""
RESULT_ROW = f"place member kind seat points fans champion finalist rating {{ {SKILL} }}"
RESULTS = f"""tournament season recorded {page("rows", RESULT_ROW)} {CORRECTIONS}
  {page("forfeited", "match winner correction")}"""
HISTORY = f"""member kind rating {{ {SKILL} }} {page("tournaments", HISTORY_ROW)}
  {CORRECTIONS}"""
TICKET = "ticket { id code seat token }"
PAYLOADS = {
    "createLeague": f"league {{ {LEAGUE} }}",
    "createSeason": f"season {{ {SEASON} }}",
    "createMember": "member { member kind claimCode }",
    "claimMember": "member { member token }",
    "openSeasonTournament": TICKET,
    "hostSeasonTournament": TICKET,
    "joinSeasonTournament": TICKET,
    "createWebhook": "webhook { id url events secret }",
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


def mutate(gql: GraphQL, mutation: str, **given: Any) -> dict[str, Any]:
    """A league mutation with ``given`` as its input: its payload (result and ``errors``)."""
    return payload(gql, mutation, f"{PAYLOADS[mutation]} {ERRORS}", **given)
