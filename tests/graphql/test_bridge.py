"""The bridge between REST and GraphQL: every write of either transport is made from one action
declaration (``apikit.actions``), and every league list from one list declaration
(``apikit.lists``), so neither holds a copy of the other's argument mapping or caller check.

Each REST write (POST, PATCH, PUT, DELETE) is a view made by ``rest_view`` from its actions (the
chat's too); each GraphQL mutation is made by ``mutation`` from an action; the two
sets are the same actions; and both transports' input comes from the action's one serializer:
OpenAPI's request body names it, and GraphQL's input type has exactly its fields (and the path's
identifiers) with the same ones required. Every league write is one of
``leagues.actions`` (or ``organizing_actions``: accounts, co-organizers, league edits,
join requests) and its mutation's resolver is the one ``mutation`` made of it;
every league list (a REST ``GET`` answering a listing shape, a GraphQL connection of a league
item) is made by ``list_view`` and ``connection_field`` from one ``Listed`` of
``leagues.lists`` (or ``organizing_actions``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from graphql import GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType

from apikit.actions import MUTATIONS, Action
from apikit.lists import LISTS, Listed
from apikit.shapes import LISTINGS
from leagues import actions as league_actions
from leagues import organizing_actions
from leagues.lists import LISTED as LEAGUE_LISTED
from server.schema import schema

# The leagues' routes: the leagues' own and an organizer's account (its sign-up, its leagues).
LEAGUES = ("api/v1/leagues/", "api/v1/organizers/")
LISTED = (*LEAGUE_LISTED, *organizing_actions.LISTED)

WRITES = ("post", "put", "patch", "delete")


def routes(patterns: Any = None, prefix: str = "") -> Iterator[tuple[str, type]]:
    """Every URL route and its view class (DRF views only)."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            view = getattr(pattern.callback, "cls", None)
            if view is not None:
                yield prefix + str(pattern.pattern), view


def rest_actions() -> dict[str, tuple[str, Action]]:
    """Each REST write's action by name, with its route; a write made otherwise fails."""
    found: dict[str, tuple[str, Action]] = {}
    for route, view in routes():
        made: tuple[Action, ...] = getattr(view, "actions", ())
        writes = {m for m in WRITES if callable(getattr(view, m, None))}
        assert writes == {action.method for action in made}, (route, view, writes)
        for action in made:
            assert action.name not in found, f"{action.name} is a view twice"
            found[action.name] = (route, action)
    return found


def openapi_path(route: str) -> str:
    """A Django route as OpenAPI writes it: ``<int:id>`` is ``{id}``."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def test_every_rest_write_and_every_mutation_come_from_the_same_declarations() -> None:
    mutation_type = schema._schema.mutation_type
    assert mutation_type is not None
    rest = rest_actions()
    assert set(rest) == set(MUTATIONS)
    assert {camel(name) for name in MUTATIONS} == set(mutation_type.fields)
    for name, (_, action) in rest.items():
        assert MUTATIONS[name] is action


def test_a_mutations_input_has_the_fields_of_the_actions_serializer_and_path() -> None:
    for name, action in MUTATIONS.items():
        field = schema._schema.mutation_type.fields[camel(name)]  # type: ignore[union-attr]
        kind = field.args["input"].type
        assert isinstance(kind, GraphQLNonNull)
        given = kind.of_type
        assert isinstance(given, GraphQLInputObjectType)
        expected = {camel(ident.input_name): True for ident in action.path}
        if action.body is not None:
            for field_name, declared in action.body().fields.items():
                expected[camel(field_name)] = bool(declared.required)
        found = {n: isinstance(f.type, GraphQLNonNull) for n, f in given.fields.items()}
        assert found == expected, name


def test_a_mutations_payload_carries_the_result_or_typed_errors() -> None:
    for name, action in MUTATIONS.items():
        field = schema._schema.mutation_type.fields[camel(name)]  # type: ignore[union-attr]
        payload = field.type.of_type if isinstance(field.type, GraphQLNonNull) else field.type
        assert isinstance(payload, GraphQLObjectType)
        assert set(payload.fields) == {camel(action.result.field), "errors"}, name
        errors = str(payload.fields["errors"].type)
        assert errors == "[UserError!]!", name


def test_the_openapi_request_of_each_action_is_its_serializer() -> None:
    spec = SchemaGenerator().get_schema(request=None, public=True)
    for name, (route, action) in rest_actions().items():
        operation = spec["paths"][openapi_path(route)][action.method]
        body = operation.get("requestBody")
        if action.body is None:
            assert body is None, name
            continue
        assert body is not None, name
        ref = body["content"]["application/json"]["schema"]["$ref"]
        component = action.body.__name__.removesuffix("Serializer")
        patched = "Patched" if action.method == "patch" else ""  # drf-spectacular's partial name
        assert ref == f"#/components/schemas/{patched}{component}", (name, ref)


def resolver_of(root: Any, name: str) -> Any:
    """The Python function Strawberry calls for the root field ``name``."""
    return root.fields[name].extensions["strawberry-definition"].base_resolver.wrapped_func


def test_every_league_write_is_a_league_action_made_into_its_mutation() -> None:
    rest = rest_actions().values()
    league_writes = {action.name: action for route, action in rest if route.startswith(LEAGUES)}
    both = (*league_actions.ACTIONS, *organizing_actions.ACTIONS)
    declared = {action.name: action for action in both}
    assert set(league_writes) == set(declared)
    mutation_type = schema._schema.mutation_type
    for name, action in declared.items():
        assert league_writes[name] is action, name
        assert getattr(resolver_of(mutation_type, camel(name)), "action", None) is action, name


def test_every_league_list_is_one_declaration_for_rest_and_graphql() -> None:
    spec = SchemaGenerator().get_schema(request=None, public=True)
    listing_names = {listing.__name__ for listing in LISTINGS}
    rest: dict[str, Listed] = {}
    for route, view in routes():
        answer = spec["paths"].get(openapi_path(route), {}).get("get", {}).get("responses", {})
        body = answer.get("200", {}).get("content", {}).get("application/json", {})
        ref = body.get("schema", {}).get("$ref", "")
        if route.startswith(LEAGUES) and ref.rsplit("/", 1)[-1] in listing_names:
            listed = getattr(view, "listed", None)
            assert isinstance(listed, Listed), route  # not made by ``list_view``
            assert ref.endswith("/" + listed.listing.__name__), route
            rest[listed.name] = listed
    assert set(rest.values()) == set(LISTED)
    league_items = {f"{LISTINGS[listed.listing].__name__}Connection" for listed in LISTED}
    query_type = schema._schema.query_type
    assert query_type is not None
    graphql = {
        name: getattr(resolver_of(query_type, name), "listed", None)
        for name, field in query_type.fields.items()
        if _named(field.type) in league_items
    }
    assert graphql == {camel(listed.name): listed for listed in LISTED}
    assert all(LISTS[listed.name] is listed for listed in LISTED)


def _named(kind: Any) -> str:
    while hasattr(kind, "of_type"):
        kind = kind.of_type
    return str(kind)
