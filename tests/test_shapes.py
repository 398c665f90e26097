"""The bridge for shapes: every league response, and a tournament's matches, match events, log,
verification and replay, is declared once (``config.shapes``).

Each league REST operation's JSON answer is a component made from a shape (its schema is what
``openapi_schema`` makes of it, field for field); each object type the leagues' GraphQL reaches
is the type ``graphql_type`` made of a shape (no hand-written copy); the league selectors return
shapes, never dictionaries; and ``to_json`` renders a shape as REST always did (keys in
declaration order, ``omit_none`` keys left out when unset, GraphQL-only fields never sent).
"""

from __future__ import annotations

import datetime
import inspect
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from graphql import GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLType

from config.schema import schema
from config.shapes import SHAPES, Shape, fields_of, graphql_type, openapi_schema, to_json
from matches import selectors as match_selectors
from matches import shapes as match_shapes
from matches.observer import SPECTATOR
from tournaments import log_shapes
from tournaments.leagues import schedules, selectors
from tournaments.leagues import shapes as league_shapes
from tournaments.leagues.graphql.schema import Mutation as LeaguesMutation
from tournaments.leagues.graphql.schema import Query as LeaguesQuery
from tournaments.models import LOG_KINDS
from tournaments.selectors import events, matches, replay
from tournaments.services import fairness

LEAGUES = "/api/v1/leagues/"
# The tournaments app's ticket (``tournaments.actions``): answered by the league actions that open
# or join a tournament, declared with that app's responses (its shapes are that app's to make).
TICKETS = {
    ("post", LEAGUES + "tournaments/"),
    ("post", LEAGUES + "tournaments/join/"),
    ("post", LEAGUES + "{slug}/seasons/{season_id}/tournaments/"),
}
# GraphQL's own plumbing, shared by every app: pages, typed errors, payloads, the ticket.
PLUMBING = {"PageInfo", "UserError", "ErrorDetail", "Ticket", "TicketSeat"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def league_operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        if path.startswith(LEAGUES):
            for method, operation in item.items():
                yield path, method, operation


def json_answer(operation: dict[str, Any]) -> dict[str, Any] | None:
    """The schema of the operation's successful JSON answer (None: no body)."""
    for status, response in operation["responses"].items():
        if status.startswith("2"):
            content = response.get("content", {})
            if "application/json" in content:
                found: dict[str, Any] = content["application/json"]["schema"]
                return found
            return None
    return None


def test_every_league_json_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    components = spec["components"]["schemas"]
    made = 0
    for path, method, operation in league_operations(spec):
        answer = json_answer(operation)
        if answer is None or (method, path) in TICKETS:
            continue
        assert "$ref" in answer, (method, path, answer)
        name = answer["$ref"].rpartition("/")[2]
        assert name in SHAPES, (method, path, name)
        for nested in _shapes_within(SHAPES[name]):
            assert _fields(components[nested.__name__]) == _fields(_made(nested)), nested
        made += 1
    assert made >= 20  # every league read and write with a body


def _fields(component: dict[str, Any]) -> tuple[Any, ...]:
    """A component's fields, descriptions and required ones (drf-spectacular moves enums into
    components of their own afterwards)."""
    described = {name: item.get("description") for name, item in component["properties"].items()}
    return component["description"], described, component.get("required")


def _made(kind: type[Shape]) -> dict[str, Any]:
    return openapi_schema(kind, lambda nested: {"$ref": f"#/components/schemas/{nested.__name__}"})


def _shapes_within(kind: type[Shape]) -> Iterator[type[Shape]]:
    yield kind
    for found in fields_of(kind):
        for inner in _types_in(found.type):
            if isinstance(inner, type) and issubclass(inner, Shape):
                yield from _shapes_within(inner)


def _types_in(kind: Any) -> Iterator[Any]:
    yield kind
    for argument in typing.get_args(kind):
        yield from _types_in(argument)


def _named(kind: GraphQLType) -> GraphQLType:
    while isinstance(kind, GraphQLNonNull | GraphQLList):
        kind = kind.of_type
    return kind


def reachable(roots: list[GraphQLObjectType]) -> dict[str, GraphQLObjectType]:
    """The roots and every object type their fields reach (arguments aside)."""
    found: dict[str, GraphQLObjectType] = {kind.name: kind for kind in roots}
    todo = list(roots)
    while todo:
        kind = todo.pop()
        for league_field in kind.fields.values():
            inner = _named(league_field.type)
            if isinstance(inner, GraphQLObjectType) and inner.name not in found:
                found[inner.name] = inner
                todo.append(inner)
    return found


def league_roots() -> list[GraphQLObjectType]:
    root = schema._schema
    names = {f.name for f in LeaguesQuery.__strawberry_definition__.fields}  # type: ignore[attr-defined]
    mutations = {f.name for f in LeaguesMutation.__strawberry_definition__.fields}  # type: ignore[attr-defined]
    query, mutation = root.query_type, root.mutation_type
    assert query is not None and mutation is not None
    picked = [_named(query.fields[_camel(n)].type) for n in names]
    picked += [_named(mutation.fields[_camel(n)].type) for n in mutations]
    return [kind for kind in picked if isinstance(kind, GraphQLObjectType)]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def test_every_object_type_of_the_leagues_graphql_is_made_from_a_shape() -> None:
    made = 0
    for name, kind in reachable(league_roots()).items():
        if name in PLUMBING or name.endswith(("Payload", "Connection", "Edge")):
            continue
        assert name in SHAPES, f"{name} is not declared as a shape"
        definition = schema.get_type_by_name(name)
        assert definition is not None
        assert definition.origin is graphql_type(SHAPES[name]), name  # type: ignore[union-attr]
        expected = {_camel(f.name) for f in fields_of(SHAPES[name])}
        if any(f.meta.node_id for f in fields_of(SHAPES[name])):
            expected -= {_camel(f.name) for f in fields_of(SHAPES[name]) if f.meta.node_id}
            expected |= {"id", "databaseId"}
        assert set(kind.fields) == expected, name
        made += 1
    assert made >= 15


def test_the_league_selectors_return_shapes_never_dictionaries() -> None:
    readers = [
        function
        for module in (selectors, schedules)
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__ and not name.startswith("_")
    ]
    for function in readers:
        returned = typing.get_type_hints(function).get("return")
        for inner in _types_in(returned):
            assert inner is not dict and typing.get_origin(inner) is not dict, function


def test_a_shape_renders_as_rest_wrote_it() -> None:
    when = datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)
    season = league_shapes.SeasonView(
        id=3,
        name="S",
        starts_on=None,
        ends_on=datetime.date(2026, 2, 1),
        scoring={"1": 10},
        options=league_shapes.SeasonOptions(
            basic_set="City",
            additional_sets=None,
            beach_cup=False,
            winter_park="off",
            robot_difficulty=3,
        ),
        bots_allowed=True,
        advice_allowed=False,
        tournaments=0,
        archived=False,
    )
    body = to_json(season)
    assert list(body) == [
        "id",
        "name",
        "starts_on",
        "ends_on",
        "scoring",
        "options",
        "bots_allowed",
        "advice_allowed",
        "tournaments",
        "archived",
    ]  # no join_code for a non-organizer
    assert body["options"]["winter_park"] == "off"
    item = league_shapes.MemberItem(
        id=9, member="ann", kind="human", bot_level=None, claimed=True, created_at=when
    )
    assert to_json(item) == {  # the node's number is GraphQL's alone
        "member": "ann",
        "kind": "human",
        "bot_level": None,
        "claimed": True,
        "created_at": when,
    }


# The tournaments app's matches, match events, log, verification and replay (issue 24) --------

MATCH_ANSWERS = {
    ("get", "/api/v1/matches/{match_id}/"): "MatchView",
    ("post", "/api/v1/matches/{match_id}/answer/"): "MatchView",
    ("get", "/api/v1/matches/{match_id}/events/"): "[MatchEventView]",
    ("get", "/api/v1/tournaments/{tournament_id}/matches/"): "[MatchView]",
    ("get", "/api/v1/tournaments/{tournament_id}/verify/"): "Verification",
    ("get", "/api/v1/tournaments/{tournament_id}/replay/"): "Replay",
}
# Root fields answering a match, its events or the log (queries, the answer's payload and the
# subscriptions): every object type they reach is a shape's.
MATCH_ROOTS = (
    ("query", ("match", "matches", "pendingQuestions", "tournamentLog")),
    ("mutation", ("answer",)),
    ("subscription", ("tournamentEvents", "matchEvents")),
)


def _named_answer(answer: dict[str, Any]) -> str:
    if answer.get("type") == "array":
        return f"[{answer['items']['$ref'].rpartition('/')[2]}]"
    return str(answer["$ref"].rpartition("/")[2])


def test_every_match_and_record_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    components = spec["components"]["schemas"]
    for (method, path), expected in MATCH_ANSWERS.items():
        answer = json_answer(spec["paths"][path][method])
        assert answer is not None and _named_answer(answer) == expected, (method, path, answer)
        for nested in _shapes_within(SHAPES[expected.strip("[]")]):
            assert _fields(components[nested.__name__]) == _fields(_made(nested)), nested
    # The stream's frames: a component of its own, with the log's kinds as an enum.
    log_event = components["TournamentEventView"]
    assert _fields(log_event) == _fields(_made(log_shapes.TournamentEventView))
    kinds = log_event["properties"]["kind"]["allOf"][0]["$ref"].rpartition("/")[2]
    assert set(components[kinds]["enum"]) == {*LOG_KINDS, "hidden"}


def match_roots() -> list[GraphQLObjectType]:
    root = schema._schema
    picked = []
    for kind, names in MATCH_ROOTS:
        operation = getattr(root, f"{kind}_type")
        picked += [_named(operation.fields[name].type) for name in names]
    return [kind for kind in picked if isinstance(kind, GraphQLObjectType)]


def test_every_object_type_a_match_or_the_log_reaches_is_made_from_a_shape() -> None:
    made = set()
    for name, kind in reachable(match_roots()).items():
        if name in PLUMBING or name.endswith(("Payload", "Connection", "Edge")):
            continue
        assert name in SHAPES, f"{name} is not declared as a shape"
        definition = schema.get_type_by_name(name)
        assert definition is not None
        assert definition.origin is graphql_type(SHAPES[name]), name  # type: ignore[union-attr]
        expected = {_camel(f.name) for f in fields_of(SHAPES[name])}
        if any(f.meta.node_id for f in fields_of(SHAPES[name])):
            expected -= {_camel(f.name) for f in fields_of(SHAPES[name]) if f.meta.node_id}
            expected |= {"id", "databaseId"}
        assert set(kind.fields) == expected, name
        made.add(name)
    assert made >= {"MatchView", "MatchSeat", "Question", "MatchEventView", "TournamentEventView"}


def test_the_match_and_record_readers_return_shapes_never_dictionaries() -> None:
    readers = [
        match_selectors.match_view,
        match_selectors.match_list,
        match_selectors.match_events,
        matches.match_list_of,
        replay.tournament_replay,
        fairness.tournament_verify,
        events.event_view,
    ]
    for function in readers:
        returned = typing.get_type_hints(function)["return"]
        assert any(
            isinstance(inner, type) and issubclass(inner, Shape) for inner in _types_in(returned)
        ), function


def test_a_match_renders_as_rest_wrote_it() -> None:
    question = match_shapes.Question(
        seq=0,
        side="A",
        kind="freeze",
        card=1,
        card_key="Starter/Newcomer",
        options=[0, 1],
        min=0,
        max=1,
        prompt="Freeze it?",
        option_keys=["Starter/Newcomer", "Starter/Newcomer"],
        default=[0],
        option_seats=[],
        deadline=None,
    )
    sides = ((0, "A"), (1, "B"))
    seats = [match_shapes.MatchSeat(number=n, name=f"S{n}", side=s) for n, s in sides]
    view = match_shapes.MatchView(
        id=4,
        tournament=2,
        round=1,
        park="green",
        kind="normal",
        seats=seats,
        status="waiting",
        winner=None,
        reason=None,
        fans_gained=None,
        events_released=3,
        question=question,
        events=match_selectors.MatchEvents(4, SPECTATOR),
    )
    body = to_json(view)
    assert list(body) == [
        *("id", "tournament", "round", "park", "kind", "seats", "status", "winner", "reason"),
        *("fans_gained", "events_released", "question"),
    ]  # the events are GraphQL's connection; REST serves them at their own address
    assert body["seats"][1] == {"number": 1, "name": "S1", "side": "B"}
    assert list(body["question"]) == [
        *("seq", "side", "kind", "card", "card_key", "options", "min", "max", "prompt"),
        *("option_keys", "default", "option_seats", "deadline"),
    ]  # the stored question's order (the engine's), then its deadline
    hidden = match_shapes.MatchEventView(seq=2, kind="hidden", payload=None)
    assert to_json([hidden]) == [{"seq": 2, "kind": "hidden", "payload": None}]


def test_every_connection_resolver_takes_its_page_from_one_decorator() -> None:
    """No resolver repeats ``first``/``after``/``last``/``before``: ``config.graphql_pages.paged``
    gives them (its resolver takes the checked ``page``)."""
    arguments = {"first", "after", "last", "before"}
    checked, repeated = 0, []
    for name in schema._schema.type_map:
        definition = schema.get_type_by_name(name)
        for found in getattr(definition, "fields", None) or ():
            resolver = getattr(found, "base_resolver", None)
            if resolver is None or not arguments <= {a.python_name for a in resolver.arguments}:
                continue
            own = inspect.signature(inspect.unwrap(resolver.wrapped_func)).parameters
            if "page" not in own or arguments & set(own):
                repeated.append(f"{name}.{found.python_name}")
            checked += 1
    # The tournament view's lists are the other half of issue 24's (made from its shapes).
    assert set(repeated) <= {
        "TournamentView.seats",
        "TournamentView.trophies",
        "TournamentView.standings",
    }
    assert checked >= 15
