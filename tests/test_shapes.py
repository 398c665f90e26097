"""The bridge for shapes: every league, tournament, card and card-statistics response is
declared once (``apikit.shapes``): a tournament's view, list, advice and chat, and its matches,
match events, log, verification and replay.

Each league, tournament, match, card or card-stats REST operation's JSON answer is a component
made from a shape (its schema is what ``openapi_schema`` makes of it, field for field); each
object type the leagues' or the tournaments' GraphQL reaches (a match's, the log's and their
subscriptions' too), and each the card fields reach (``cards``, ``cardSets``, ``cardStats``,
``setStats``), is the type ``graphql_type`` made of a shape (no hand-written copy); their
selectors return shapes, never dictionaries; and ``to_json`` renders a shape as REST always did
(keys in declaration order, ``omit_none`` keys left out when unset, GraphQL-only fields never
sent).
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

from apikit.events import LOGS
from apikit.shapes import (
    LISTINGS,
    SHAPES,
    Shape,
    fields_of,
    graphql_type,
    openapi_schema,
    row,
    to_json,
)
from cards import selectors as card_selectors
from cards import shapes as card_shapes
from leagues import shapes as league_shapes
from leagues.graphql.schema import Mutation as LeaguesMutation
from leagues.graphql.schema import Query as LeaguesQuery
from leagues.selectors import leagues as selectors
from leagues.services import schedules
from matches import selectors as match_selectors
from matches import shapes as match_shapes
from matches.observer import SPECTATOR
from server.schema import schema
from tournaments import actions as tournament_actions
from tournaments import chat_actions, log_shapes
from tournaments import shapes as tournament_shapes
from tournaments.models import LOG_KINDS
from tournaments.selectors import advice, chat, events, listing, matches, replay, tournaments
from tournaments.selectors import cardstats as cardstats_selectors
from tournaments.services import fairness

LEAGUES = "/api/v1/leagues/"
TOURNAMENTS = "/api/v1/tournaments/"
MATCHES = "/api/v1/matches/"
MATCH_TYPES = {"MatchView", "MatchSeat", "Question"}
# The logs' envelopes: a union of their kinds in OpenAPI, an interface in GraphQL
# (``apikit.events``; each kind's payload checked by tests/tournaments/test_event_payloads.py).
ENVELOPES = {log.shape: log for log in LOGS}
# GraphQL's own plumbing, shared by every app: pages, typed errors, payloads.
PLUMBING = {"PageInfo", "UserError", "ErrorDetail"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(
    spec: dict[str, Any], prefix: str | tuple[str, ...]
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        if path.startswith(prefix):
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


def shaped_answers(spec: dict[str, Any], prefix: str) -> int:
    """How many operations under ``prefix`` answer a shape (failing for one that does not)."""
    components = spec["components"]["schemas"]
    made = 0
    for path, method, operation in operations(spec, prefix):
        answer = json_answer(operation)
        if answer is None:
            continue
        answer = answer.get("items", answer) if answer.get("type") == "array" else answer
        assert "$ref" in answer, (method, path, answer)
        name = answer["$ref"].rpartition("/")[2]
        assert name in SHAPES, (method, path, name)
        for nested in _shapes_within(SHAPES[name]):
            _same_component(components, nested)
        made += 1
    return made


def _same_component(components: dict[str, Any], kind: type[Shape]) -> None:
    """The shape's component is made from it: its fields, or a log's union of its kinds."""
    component = components[kind.__name__]
    if kind in ENVELOPES:
        mapping = component["discriminator"]["mapping"]
        assert set(mapping) == set(ENVELOPES[kind].kinds), kind
        return
    assert _fields(component) == _fields(_made(kind)), kind


def test_every_league_json_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    assert shaped_answers(spec, LEAGUES) >= 20  # every league read and write with a body


def test_every_tournament_json_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    # The list, a ticket, the view, advice, the chat, every action answering the view, the
    # matches, the verification and the replay.
    assert shaped_answers(spec, TOURNAMENTS) >= 27


def test_every_match_json_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    assert shaped_answers(spec, MATCHES) >= 3  # a match, its events, the answer


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
    names = {f.name for f in LeaguesQuery.__strawberry_definition__.fields}  # type: ignore[attr-defined]
    mutations = {f.name for f in LeaguesMutation.__strawberry_definition__.fields}  # type: ignore[attr-defined]
    return roots(names, mutations)


def tournament_roots() -> list[GraphQLObjectType]:
    """The tournaments' queries (a tournament's and its matches' and log's) and their actions'
    payloads (the answer's too)."""
    names = {"tournament", "tournaments", "advice", "tournament_chat"}
    names |= {"match", "matches", "pending_questions", "tournament_log"}
    declared = (*tournament_actions.ACTIONS, *chat_actions.ACTIONS)
    mutations = {action.name for action in declared}
    return roots(names, mutations)


def roots(names: set[str], mutations: set[str]) -> list[GraphQLObjectType]:
    root = schema._schema
    query, mutation = root.query_type, root.mutation_type
    assert query is not None and mutation is not None
    picked = [_named(query.fields[_camel(n)].type) for n in names]
    picked += [_named(mutation.fields[_camel(n)].type) for n in mutations]
    return [kind for kind in picked if isinstance(kind, GraphQLObjectType)]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def made_from_shapes(found: dict[str, GraphQLObjectType]) -> int:
    """How many of the object types ``found`` are made from shapes (failing for one not)."""
    made = 0
    for name, kind in found.items():
        if name in PLUMBING or name.endswith(("Payload", "Connection", "Edge")):
            continue
        assert name in SHAPES, f"{name} is not declared as a shape"
        definition = schema.get_type_by_name(name)
        assert definition is not None
        assert definition.origin is graphql_type(SHAPES[name]), name  # type: ignore[union-attr]
        assert set(kind.fields) == graphql_fields(SHAPES[name]), name
        made += 1
    return made


def graphql_fields(kind: type[Shape]) -> set[str]:
    """The GraphQL field names a shape's type has: its own or renamed, a node's ``id`` (and
    ``databaseId`` for a number), none of REST's alone."""
    names = set()
    for found in fields_of(kind):
        if found.meta.node_id:
            names |= {"id", "databaseId"} if found.type is int else {"id"}
        elif found.meta.graphql:
            names.add(_camel(found.meta.graphql_name or found.name))
    return names


def test_every_object_type_of_the_leagues_graphql_is_made_from_a_shape() -> None:
    assert made_from_shapes(reachable(league_roots())) >= 15


def test_every_object_type_of_the_tournaments_graphql_is_made_from_a_shape() -> None:
    found = reachable(tournament_roots())
    assert set(found) >= MATCH_TYPES  # a match, its seats, question and events, the log
    assert made_from_shapes(found) >= 20


@pytest.mark.parametrize(
    "modules",
    [
        (selectors, schedules),
        (tournaments, listing, advice, chat),
        (match_selectors, matches, replay, events),
        (card_selectors, cardstats_selectors),
    ],
    ids=["leagues", "tournaments", "matches", "cards"],
)
def test_the_selectors_return_shapes_never_dictionaries(modules: tuple[Any, ...]) -> None:
    readers = [
        function
        for module in modules
        for name, function in inspect.getmembers(module, inspect.isfunction)
        if function.__module__ == module.__name__
        and not name.startswith("_")
        and function not in NOT_ANSWERS
    ]
    assert len(readers) >= 4
    for function in readers:
        returned = typing.get_type_hints(function).get("return")
        for inner in _types_in(returned):
            assert inner is not dict and typing.get_origin(inner) is not dict, function


# Not responses: which additional sets a new tournament may play, for the services to check;
# the sets' annotations, which the sets' query and GraphQL's set type add.
NOT_ANSWERS = {card_selectors.additional_set_problems, card_selectors.set_figures}


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
        closed=False,
        closures=[],
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
        "closed",
        "closures",
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


def test_a_tournament_shape_renders_as_rest_wrote_it() -> None:
    ticket = tournament_shapes.Ticket.of(4, "ABCD", 0, "secret")
    assert to_json(ticket) == {"id": 4, "code": "ABCD", "seat": {"id": 0, "token": "secret"}}
    assert to_json(tournament_shapes.Ticket.of(4, "ABCD", None, None))["seat"] is None
    said = tournament_shapes.ChatMessage(seq=3, seat=1, name="Ann", text="hi")
    assert list(to_json(said)) == ["seq", "seat", "name", "text"]  # no spectator for a seat
    heard = tournament_shapes.ChatMessage(seq=4, seat=None, spectator=2, name="Bo", text="yo")
    assert list(to_json(heard)) == ["seq", "seat", "spectator", "name", "text"]
    choice = tournament_shapes.AdviceChoice(
        card=7, key="City/Dog", win_probability=0.5, sample_size=9
    )
    assert to_json(choice) == {
        "card": 7,
        "key": "City/Dog",
        "win_probability": 0.5,
        "sample_size": 9,
    }
    seat = tournament_shapes.SeatView(
        id="4:0",
        number=0,
        name="Ann",
        kind="human",
        is_host=True,
        tokens=0,
        deck_size=8,
        finished=None,
        auto_played=False,
        bot_level=None,
        dropped=False,
    )
    assert "id" not in to_json(seat)  # the seat's global id is GraphQL's alone


def test_every_league_listing_is_made_by_listing() -> None:
    made = {
        name: kind
        for name, kind in vars(league_shapes).items()
        if isinstance(kind, type) and issubclass(kind, Shape) and kind is not Shape
    }
    results = {n for n, kind in made.items() if [f.name for f in fields_of(kind)] == ["results"]}
    assert results == {n for n, kind in made.items() if kind in LISTINGS} != set()
    for name in results:
        assert made[name].__name__ == name
        (found,) = fields_of(made[name])
        assert typing.get_args(found.type) == (LISTINGS[made[name]],)


def test_a_row_takes_the_sources_attributes_and_refuses_a_field_it_lacks() -> None:
    class Source:
        mu, sigma, ordinal = 25.0, 8.0, 1.0

    skill = row(league_shapes.Skill, Source(), ordinal=-1.0)
    assert (skill.mu, skill.sigma, skill.ordinal) == (25.0, 8.0, -1.0)
    with pytest.raises(TypeError, match="ordinl"):
        row(league_shapes.Skill, Source(), ordinl=-1.0)


def test_a_row_reads_a_mappings_keys_and_a_missing_one_is_an_error() -> None:
    payload = {"mu": 25.0, "sigma": 8.0, "ordinal": 1.0, "extra": "ignored"}
    skill = row(league_shapes.Skill, payload, sigma=7.0)
    assert (skill.mu, skill.sigma, skill.ordinal) == (25.0, 7.0, 1.0)
    with pytest.raises(KeyError, match="ordinal"):
        row(league_shapes.Skill, {"mu": 25.0, "sigma": 8.0})


CARDS = ("/api/v1/cards/", "/api/v1/card-sets/")
CARD_ROOTS = ("cards", "cardSets", "cardStats", "setStats")


def test_every_card_and_card_stats_answer_in_openapi_is_a_shape(spec: dict[str, Any]) -> None:
    components = spec["components"]["schemas"]
    made = set()
    for path, method, operation in operations(spec, CARDS):
        answer = json_answer(operation)
        assert answer is not None, (method, path)
        answer = answer.get("items", answer)  # a list: every card, every set
        name = answer["$ref"].rpartition("/")[2]
        assert name in SHAPES, (method, path, name)
        for nested in _shapes_within(SHAPES[name]):
            assert _fields(components[nested.__name__]) == _fields(_made(nested)), nested
        made.add(name)
    assert made == {"Card", "CardSet", "DesignStats", "SetStats"}


def test_every_object_type_of_the_cards_graphql_is_made_from_a_shape() -> None:
    query = schema._schema.query_type
    assert query is not None
    roots = [_named(query.fields[name].type) for name in CARD_ROOTS]
    objects = [kind for kind in roots if isinstance(kind, GraphQLObjectType)]
    # card, set, stats, figures, its rows, simulation
    assert made_from_shapes(reachable(objects)) >= 7


def test_a_card_renders_as_rest_wrote_it_and_its_node_number_is_rests_id() -> None:
    card = card_shapes.Card(
        id=5,
        key="City/Reporter",
        set="City",
        set_id=1,
        box="base",
        name="Reporter",
        level="A",
        power=2,
        power_is_round=False,
        copies=4,
        copies_per_starter_deck=None,
        keyword="",
        timing="on_reveal",
        effect="Look.",
        confidence="high",
        note="",
        effect_code="arrange_top",
        effect_params={"n": 2},
        translations={},
        retired=False,
        curated=False,
    )
    body = to_json(card)
    assert list(body)[:6] == ["id", "key", "set", "set_id", "box", "name"]
    assert body["id"] == 5 and body["copies_per_starter_deck"] is None
    kind = schema.get_type_by_name("Card")
    assert kind is not None and kind.origin is graphql_type(card_shapes.Card)  # type: ignore[union-attr]
    card_set = card_shapes.CardSet(
        id=1,
        name="City",
        box="base",
        kind="basic",
        expected_copies=20,
        starter_decks=None,
        designs=1,
        copy_total=4,
        unknown_copies=0,
        note="",
        retired=False,
        playable=False,
        missing=[],
        curated=False,
        cards=[card],
    )
    assert "cards" not in to_json(card_set)  # a set's designs: GraphQL's connection alone


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
            _same_component(components, nested)
    # The stream's frames: a component of its own, the union of the log's kinds.
    log_event = components["TournamentEventView"]
    assert set(log_event["discriminator"]["mapping"]) == {*LOG_KINDS, "hidden"}
    _same_component(components, log_shapes.TournamentEventView)


def match_roots() -> list[GraphQLObjectType]:
    root = schema._schema
    picked = []
    for kind, names in MATCH_ROOTS:
        operation = getattr(root, f"{kind}_type")
        picked += [_named(operation.fields[name].type) for name in names]
    return [kind for kind in picked if isinstance(kind, GraphQLObjectType)]


def test_every_object_type_a_match_or_the_log_reaches_is_made_from_a_shape() -> None:
    found = reachable(match_roots())  # the subscriptions' frames too
    assert set(found) >= MATCH_TYPES
    assert made_from_shapes(found) >= len(MATCH_TYPES)
    for log in LOGS:  # the frames' interfaces: one object type per kind implements each
        kinds = schema._schema.get_implementations(schema._schema.get_type(log.name))  # type: ignore[arg-type]
        assert {kind.name for kind in kinds.objects} == {log.variant_name(k) for k in log.kinds}


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
    """No resolver repeats ``first``/``after``/``last``/``before``: ``apikit.graphql_pages.paged``
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
    assert repeated == []  # the tournament view's lists too: its shape's connections
    assert checked >= 15
