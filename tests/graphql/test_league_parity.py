"""Leagues through REST and GraphQL alike: one table of refusals (the same code, message and
details, nothing changed), and the same reads (list, league, standings, member, the tournament
list's ``league`` filter) over a season with a finished tournament."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import (
    League,
    LeagueTournament,
    Member,
    MemberSeat,
    Season,
    WebhookEndpoint,
)
from tests.api.snapshot import everything
from tests.graphql.client import ERRORS, GraphQL, operation, typed
from tests.graphql.leagues import HISTORY, LEAGUE, PAYLOADS, RESULTS, STANDINGS, call, mutate
from tests.graphql.rest_shape import rest_json, rest_shape
from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season, ok, org

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Case:
    """A request as REST sends it (``path`` from ``/api/v1/``) and as GraphQL sends it;
    ``$name`` in a path or value is a fact of the setup (a season id, a code, a token)."""

    name: str
    who: str
    path: str
    body: dict[str, Any]
    mutation: str
    args: dict[str, Any] = field(default_factory=dict)
    # GraphQL's own refusal where its input types hold what REST's body checks (an enum, a
    # nested input): a coded GraphQL error before any resolver runs.
    graphql_code: str | None = None


@dataclass
class Setup:
    facts: dict[str, Any]
    headers: dict[str, str | None]

    def fill(self, value: Any) -> Any:
        if isinstance(value, str) and re.fullmatch(r"\$\w+", value):
            return self.facts[value[1:]]
        if isinstance(value, str):
            return re.sub(r"\$(\w+)", lambda found: str(self.facts[found[1]]), value)
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        return value


def _claimed(client: APIClient, token: str, slug: str, handle: str) -> str:
    path = f"/api/v1/leagues/{slug}/members/"
    claim = ok(client.post(path, {"handle": handle}, format="json", headers=org(token)))
    body = {"claim_code": claim["claim_code"]}
    claimed = ok(client.post(path + "claim/", body, format="json"))
    token_: str = claimed["token"]
    return token_


def setup() -> Setup:
    """Two leagues with a season each, a claimed member in each, a season tournament of the
    first whose lobby that league's member sits in."""
    client = APIClient()
    token, rival = create_organizer("org"), create_organizer("rival")
    slug, season = league_with_season(client, token)
    league_with_season(client, rival, "other")
    ann, zed = _claimed(client, token, slug, "ann"), _claimed(client, rival, "other", "zed")
    opened = f"/api/v1/leagues/{slug}/seasons/{season}/tournaments/"
    code = ok(client.post(opened, {"seats": 3}, format="json", headers=org(token)))["code"]
    join = {"code": code, "member_token": ann}
    ok(client.post("/api/v1/leagues/tournaments/join/", join, format="json"))
    facts = {"season": season, "unknown_season": season + 99, "code": code, "ann": ann, "zed": zed}
    headers = {
        "org": f"Token {token}",
        "rival": f"Token {rival}",
        "nobody": None,
        "bad": "Token not-a-token",
    }
    return Setup(facts, headers)


def league_rows() -> tuple[Any, ...]:
    """The league rows any accepted request would change, with the tournaments' own."""
    return (
        everything(),
        list(League.objects.order_by("pk").values_list("pk", "slug", "visibility")),
        list(Season.objects.order_by("pk").values_list("pk", "name", "join_code")),
        list(Member.objects.order_by("pk").values_list("pk", "handle", "claim_hash", "token_hash")),
        list(LeagueTournament.objects.order_by("pk").values_list("pk", "season_id")),
        MemberSeat.objects.count(),
        WebhookEndpoint.objects.count(),
    )


SEASON_TOURNAMENT = "leagues/club/seasons/$season/tournaments/"
CASES = [
    Case("a league by nobody", "nobody", "leagues/", {"name": "X", "slug": "x"}, "createLeague"),
    Case("a league by a bad token", "bad", "leagues/", {"name": "X", "slug": "x"}, "createLeague"),
    Case("a taken slug", "rival", "leagues/", {"name": "X", "slug": "club"}, "createLeague"),
    Case("a slug that is not one", "org", "leagues/", {"name": "X", "slug": "a b"}, "createLeague"),
    Case("a season by a rival", "rival", "leagues/club/seasons/", {"name": "S"}, "createSeason"),
    Case("a season of no league", "org", "leagues/nope/seasons/", {"name": "S"}, "createSeason"),
    Case(
        "a season's bad scoring",
        "org",
        "leagues/club/seasons/",
        {"name": "S", "scoring": {"champion": "x"}},
        "createSeason",
        graphql_code="invalid_variables",
    ),
    Case(
        "a season's sets not five",
        "org",
        "leagues/club/seasons/",
        {"name": "S", "additional_sets": ["Castle"]},
        "createSeason",
        {"additionalSets": ["Castle"]},
    ),
    Case(
        "a season ending before it starts",
        "org",
        "leagues/club/seasons/",
        {"name": "S", "starts_on": "2026-05-02", "ends_on": "2026-05-01"},
        "createSeason",
    ),
    Case("a member by a rival", "rival", "leagues/club/members/", {"handle": "b"}, "createMember"),
    Case("a bot's handle", "org", "leagues/club/members/", {"handle": "Bot 1"}, "createMember"),
    Case("a taken handle", "org", "leagues/club/members/", {"handle": "ann"}, "createMember"),
    Case(
        "an unknown claim code",
        "nobody",
        "leagues/club/members/claim/",
        {"claim_code": "nope"},
        "claimMember",
    ),
    Case("open by a rival", "rival", SEASON_TOURNAMENT, {"seats": 2}, "openSeasonTournament"),
    Case("open by nobody", "nobody", SEASON_TOURNAMENT, {"seats": 2}, "openSeasonTournament"),
    Case("open with 9 seats", "org", SEASON_TOURNAMENT, {"seats": 9}, "openSeasonTournament"),
    Case(
        "open with other options",
        "org",
        SEASON_TOURNAMENT,
        {"seats": 2, "beach_cup": True},
        "openSeasonTournament",
    ),
    Case(
        "open in an unknown season",
        "org",
        "leagues/club/seasons/$unknown_season/tournaments/",
        {"seats": 2},
        "openSeasonTournament",
        {"seasonId": "$unknown_season"},
    ),
    Case(
        "host with an unknown join code",
        "nobody",
        "leagues/tournaments/",
        {"join_code": "NOPE", "name": "H", "seats": 2},
        "hostSeasonTournament",
    ),
    Case(
        "join with an unknown member token",
        "nobody",
        "leagues/tournaments/join/",
        {"code": "$code", "member_token": "nope"},
        "joinSeasonTournament",
    ),
    Case(
        "join with another league's member",
        "nobody",
        "leagues/tournaments/join/",
        {"code": "$code", "member_token": "$zed"},
        "joinSeasonTournament",
    ),
    Case(
        "join twice as one member",
        "nobody",
        "leagues/tournaments/join/",
        {"code": "$code", "member_token": "$ann"},
        "joinSeasonTournament",
    ),
    Case(
        "a webhook by a rival",
        "rival",
        "leagues/club/webhooks/",
        {"url": "http://127.0.0.1:9/"},
        "createWebhook",
    ),
    Case(
        "a webhook's unknown event",
        "org",
        "leagues/club/webhooks/",
        {"url": "http://127.0.0.1:9/", "events": ["nope"]},
        "createWebhook",
        graphql_code="invalid_variables",
    ),
    Case(
        "a webhook aimed inward",
        "org",
        "leagues/club/webhooks/",
        {"url": "http://2130706433:6379/"},
        "createWebhook",
    ),
]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def graphql_args(case: Case) -> dict[str, Any]:
    """REST's body in camelCase, with the path's slug and season, and the case's own args."""
    args = {_camel(k): v for k, v in case.body.items()}
    parts = case.path.split("/")
    if parts[1] not in ("", "tournaments"):
        args["slug"] = parts[1]
    if "seasons" in parts and case.mutation == "openSeasonTournament":
        args["seasonId"] = "$season"
    return {**args, **case.args}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_league_refusal_is_the_same_through_rest_and_graphql(catalogue: Any, case: Case) -> None:
    at = setup()
    header = at.headers[case.who]
    headers = {"Authorization": header} if header else {}
    before = league_rows()
    response = APIClient().post(
        f"/api/v1/{at.fill(case.path)}", at.fill(case.body), format="json", headers=headers
    )
    assert response.status_code >= 400, response.content
    assert league_rows() == before
    given = at.fill(graphql_args(case))
    if case.graphql_code is not None:
        selection = f"{PAYLOADS[case.mutation]} {ERRORS}"
        body = GraphQL(header).post(operation(case.mutation, selection), input=given)
        assert [e["extensions"]["code"] for e in body["errors"]] == [case.graphql_code]
        assert league_rows() == before
        return
    answer = mutate(GraphQL(header), case.mutation, **given)
    assert league_rows() == before
    assert answer["errors"] == typed(response.json())


QUERY_REFUSALS = [
    ("leagues/nope/", "league", {"slug": "nope"}, LEAGUE),
    (
        "leagues/club/standings/?season=$unknown_season",
        "standings",
        {"slug": "club", "season": "$unknown_season"},
        STANDINGS,
    ),
    ("leagues/club/standings/?season=0", "standings", {"slug": "club", "season": 0}, STANDINGS),
    ("leagues/nope/standings/", "standings", {"slug": "nope"}, STANDINGS),
    ("leagues/club/members/nobody/", "member", {"slug": "club", "handle": "nobody"}, HISTORY),
    ("tournaments/?league=a b", "tournaments", {"league": "a b"}, "totalCount"),
]


def test_a_kind_the_standings_do_not_know_is_refused_before_anything_runs(db: None) -> None:
    """REST's ``?kind=robots`` is ``invalid``; GraphQL's ``kind`` is a ``MemberKind`` enum, so a
    value outside it is refused with the variables (``invalid_variables``)."""
    assert (
        APIClient().get("/api/v1/leagues/club/standings/?kind=robots").json()["code"] == "invalid"
    )
    query = 'query($kind: MemberKind) { standings(slug: "club", kind: $kind) { kind } }'
    body = GraphQL().post(query, kind="ROBOTS")
    assert [e["extensions"]["code"] for e in body["errors"]] == ["invalid_variables"]


@pytest.mark.parametrize("case", QUERY_REFUSALS, ids=lambda c: c[0])
def test_a_league_query_refusal_is_the_same_through_rest_and_graphql(
    catalogue: Any, case: tuple[str, str, dict[str, Any], str]
) -> None:
    path, field_, args, selection = case
    at = setup()
    response = APIClient().get(f"/api/v1/{at.fill(path)}")
    assert response.status_code >= 400, response.content
    body = call(GraphQL(), field_, selection, **at.fill(args))
    assert body["data"] is None
    [error] = body["errors"]
    refusal = response.json()
    assert error["extensions"] == {"code": refusal["code"], "details": refusal["details"]}
    assert error["message"] == refusal["message"]


LISTED = """totalCount edges { node { databaseId title status round seatCount seatsTaken
  freeSeats host basicSet additionalSets beachCup winterMode robotDifficulty winners
  createdAt } }"""


def _nodes(connection: dict[str, Any]) -> list[Any]:
    return [rest_shape(edge["node"]) for edge in connection["edges"]]


def _data(gql: GraphQL, field_: str, selection: str, **args: Any) -> Any:
    body = call(gql, field_, selection, **args)
    assert "errors" not in body, body
    return body["data"]["result"]


def _without_null_join_codes(league: dict[str, Any]) -> dict[str, Any]:
    """REST leaves ``join_code`` out for a non-organizer; GraphQL answers it null."""
    seasons = [
        {k: v for k, v in season.items() if not (k == "join_code" and v is None)}
        for season in league["seasons"]
    ]
    return {**league, "seasons": seasons}


# (field, arguments, SQL queries): one read each of the league, season, rows, member...; none
# grows with the standings' rows or a member's tournaments.
READ_QUERIES = [
    ("leagues", "totalCount edges { node { slug } }", {}, 1),
    # Their corrections: one query more for the standings, two for a member's history rows.
    ("standings", STANDINGS, {"slug": "club"}, 4),
    ("member", HISTORY, {"slug": "club", "handle": "$first"}, 8),
]


@pytest.mark.django_db(transaction=True)
def test_league_reads_are_the_same_through_rest_and_graphql(
    catalogue: Any, django_assert_num_queries: Any
) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token, robot_difficulty=2)
    league_with_season(client, token, "hidden", public=False)
    in_league = bot_tournament(client, token, slug, season, 3)
    nobody, organizer = GraphQL(), GraphQL(f"Token {token}")

    listed = _data(nobody, "leagues", "totalCount edges { node { slug name description public } }")
    assert _nodes(listed) == ok(client.get("/api/v1/leagues/"), 200)["results"]
    assert [league["slug"] for league in _nodes(listed)] == [slug]  # not the unlisted one

    mine = ok(client.get(f"/api/v1/leagues/{slug}/", headers=org(token)), 200)
    assert rest_shape(_data(organizer, "league", LEAGUE, slug=slug)) == rest_json(mine)
    assert mine["seasons"][0]["join_code"]
    theirs = ok(client.get(f"/api/v1/leagues/{slug}/"), 200)
    seen = rest_shape(_data(nobody, "league", LEAGUE, slug=slug))
    assert _without_null_join_codes(seen) == rest_json(theirs)

    standings = ok(client.get(f"/api/v1/leagues/{slug}/standings/?season={season}"), 200)
    assert len(standings["rows"]) == 3 and standings["rows"][0]["rating"] is not None
    for args in ({"slug": slug}, {"slug": slug, "season": season}):
        assert rest_shape(_data(nobody, "standings", STANDINGS, **args)) == standings

    for row in standings["rows"]:
        history = ok(client.get(f"/api/v1/leagues/{slug}/members/{row['member']}/"), 200)
        assert history["tournaments"][0]["tournament"] == in_league
        found = _data(nobody, "member", HISTORY, slug=slug, handle=row["member"])
        assert rest_shape(found) == history

    results = ok(client.get(f"/api/v1/leagues/{slug}/tournaments/{in_league}/results/"), 200)
    found = _data(nobody, "tournamentResults", RESULTS, slug=slug, tournament=in_league)
    assert rest_shape(found) == results and len(results["rows"]) == 3

    first = standings["rows"][0]["member"]
    for field_, selection, args, queries in READ_QUERIES:
        filled = {k: first if v == "$first" else v for k, v in args.items()}
        with django_assert_num_queries(queries):
            _data(nobody, field_, selection, **filled)


def made(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload's result, once it is sure there was no refusal."""
    assert payload.pop("errors") == [], payload
    ((_, result),) = payload.items()
    assert result is not None
    found: dict[str, Any] = result
    return found


def _same(rest: dict[str, Any], graphql: dict[str, Any], *secret: str) -> None:
    """The same answer, but for what tells two created rows apart (ids, codes, tokens)."""
    shaped = rest_shape(made(graphql))
    assert shaped.keys() == rest.keys()
    assert {k: v for k, v in shaped.items() if k not in secret} == {
        k: v for k, v in rest.items() if k not in secret
    }


def test_league_writes_answer_the_same_through_rest_and_graphql(catalogue: Any) -> None:
    """Each organizer mutation beside its REST twin on a twin league: the same answers."""
    client, token = APIClient(), create_organizer("org")
    gql, headers = GraphQL(f"Token {token}"), org(token)

    def rest(path: str, body: dict[str, Any], status: int = 201) -> Any:
        return ok(client.post(f"/api/v1/{path}", body, format="json", headers=headers), status)

    league = {"name": "Club", "description": "Thursdays", "public": False}
    by_rest = rest("leagues/", {**league, "slug": "r"})
    by_graphql = mutate(gql, "createLeague", **league, slug="g")
    _same({**by_rest, "slug": "g"}, by_graphql)

    season = {"name": "Spring", "robot_difficulty": 2, "beach_cup": True, "starts_on": "2026-03-01"}
    season |= {"scoring": {"champion": 12, "finalist": 6, "by_fans_rank": [3, 2], "played": 0}}
    by_rest = rest("leagues/r/seasons/", season)
    args = {"robotDifficulty": 2, "beachCup": True, "startsOn": "2026-03-01"}
    scoring = {"champion": 12, "finalist": 6, "byFansRank": [3, 2], "played": 0}
    by_graphql = made(mutate(gql, "createSeason", slug="g", name="Spring", scoring=scoring, **args))
    _same(by_rest, {"season": dict(by_graphql), "errors": []}, "id", "join_code")
    seasons = {"r": by_rest, "g": by_graphql}

    by_rest = rest("leagues/r/members/", {"handle": "ann"})
    by_graphql = made(mutate(gql, "createMember", slug="g", handle="ann"))
    _same(by_rest, {"member": dict(by_graphql), "errors": []}, "claim_code")
    claimed = rest("leagues/r/members/claim/", {"claim_code": by_rest["claim_code"]})
    mine = made(mutate(GraphQL(), "claimMember", slug="g", claimCode=by_graphql["claimCode"]))
    _same(claimed, {"member": dict(mine), "errors": []}, "token")

    opened = rest(f"leagues/r/seasons/{seasons['r']['id']}/tournaments/", {"seats": 3})
    gql_opened = made(
        mutate(gql, "openSeasonTournament", slug="g", seasonId=seasons["g"]["databaseId"], seats=3)
    )
    # A ticket's seat and token are flat in GraphQL (``Ticket``), nested in REST.
    assert (opened["seat"], gql_opened["seat"], gql_opened["token"]) == (None, None, None)
    joined = rest(
        "leagues/tournaments/join/", {"code": opened["code"], "member_token": claimed["token"]}
    )
    gql_joined = made(
        mutate(
            GraphQL(), "joinSeasonTournament", code=gql_opened["code"], memberToken=mine["token"]
        )
    )
    assert (gql_joined["seat"], joined["seat"]["id"]) == (0, 0)
    assert LeagueTournament.objects.filter(tournament_id=gql_opened["id"]).exists()
    assert MemberSeat.objects.filter(member__league__slug="g", seat__number=0).exists()

    hosted = made(
        mutate(
            GraphQL(),
            "hostSeasonTournament",
            joinCode=seasons["g"]["joinCode"],
            name="Host",
            seats=2,
        )
    )
    assert hosted["seat"] == 0 and hosted["token"]

    hook = {"url": "http://93.184.215.14/hook", "events": ["standings_changed"]}
    _same(
        rest("leagues/r/webhooks/", hook),
        mutate(gql, "createWebhook", slug="g", url=hook["url"], events=["STANDINGS_CHANGED"]),
        "id",
        "secret",
    )


def _listed(gql: GraphQL, league: str, status: str | None) -> Any:
    """``tournaments(league:, status:)``: ``status`` a ``ListStatus`` (REST's value upper-cased)."""
    query = f"""query($league: String!, $status: ListStatus) {{
      result: tournaments(league: $league, status: $status) {{ {LISTED} }} }}"""
    return gql.data(query, league=league, status=status and status.upper())["result"]


def test_the_tournament_list_filters_by_league_as_rest_does(catalogue: Any) -> None:
    """``tournaments(league:)`` lists that league's season tournaments only, as
    ``?league=<slug>`` does; an unknown slug, none."""
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    path = f"/api/v1/leagues/{slug}/seasons/{season}/tournaments/"
    in_league = ok(client.post(path, {"seats": 2}, format="json", headers=org(token)))["id"]
    ok(client.post("/api/v1/tournaments/", {"seats": 2}, format="json", headers=org(token)))
    nobody = GraphQL()
    for league, status in ((slug, None), ("nobody", None), (slug, "lobby"), (slug, "finished")):
        query = f"league={league}" + (f"&status={status}" if status else "")
        page = ok(client.get(f"/api/v1/tournaments/?{query}"), 200)
        found = _listed(nobody, league, status)
        assert (found["totalCount"], _nodes(found)) == (page["count"], rest_json(page["results"]))
    found = _data(nobody, "tournaments", "edges { node { databaseId } }", league=slug)
    assert found["edges"] == [{"node": {"databaseId": in_league}}]
    assert _data(nobody, "tournaments", "totalCount", league="nobody")["totalCount"] == 0
