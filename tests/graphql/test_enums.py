"""Each closed set of values is declared once, on the server, and both APIs take it from there:
the GraphQL enum's members and REST's OpenAPI enum equal the server's set. A kind added in one
place only (the engine, the rules, a model's choices, or a hand-written list in either API)
fails here."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from apikit.enums import member_name
from apikit.shapes import SHAPES as SHAPES_DECLARED
from cards.graphql import schema as card_schema
from cards.graphql import types as card_types
from cards.models import Box, Confidence, Level, SetKind, Timing
from matches.engine.events import SHAPES
from matches.engine.questions import PROMPTS
from matches.models import MatchStatus
from tests.graphql.client import GraphQL
from tests.test_docs import stream_kinds
from tournaments.enums import SEAT_ACTIONS
from tournaments.graphql import cardstats, queries, types
from tournaments.models import BalanceStatus, SeatKind, Status
from tournaments.rules.bots import LEVELS
from tournaments.rules.bots.advice import ADVICE_KINDS
from tournaments.rules.options import BASIC_SETS, BOXES
from tournaments.rules.when_picked import PENDING_KINDS
from tournaments.rules.winter import MODES, PARK_KINDS

SHOWN_STATUSES = {*MatchStatus.values, "playing"} - {MatchStatus.RECORDED}
# GraphQL enum: (the server's set, REST's (component, field) holding the same set, if any).
SETS: dict[str, tuple[set[str], tuple[str, str] | None]] = {
    "PendingKind": (set(PENDING_KINDS), ("Pending", "kind")),
    "QuestionKind": (set(PROMPTS), ("Question", "kind")),
    "AdviceKind": (set(ADVICE_KINDS), ("AdviceView", "kind")),
    "MatchKind": (set(PARK_KINDS), ("MatchView", "kind")),
    "MatchEventKind": ({*SHAPES, "hidden"}, ("MatchEventView", "kind")),
    "MatchStatus": (SHOWN_STATUSES, ("MatchView", "status")),
    "TournamentEventKind": (set(stream_kinds()), ("TournamentEventView", "kind")),
    "TournamentStatus": (set(Status.values), ("TournamentView", "status")),
    "SeatKind": (set(SeatKind.values), ("SeatView", "kind")),
    "CardLevel": (set(Level.values), ("Card", "level")),
    "CardTiming": (set(Timing.values), ("Card", "timing")),
    "Confidence": (set(Confidence.values), ("Card", "confidence")),
    "CardSetKind": (set(SetKind.values), ("CardSet", "kind")),
    "Box": (set(Box.values) | set(BOXES), ("CardSet", "box")),
    "SimulationStatus": (set(BalanceStatus.values), ("Simulation", "status")),
    "BotLevel": (set(LEVELS), ("SeatView", "bot_level")),
    "SeatAction": (set(SEAT_ACTIONS), ("You", "actions")),
    "WinterMode": (set(MODES), None),
    "BasicSet": (set(BASIC_SETS), None),
    "MatchSide": ({"A", "B"}, ("MatchSeat", "side")),
    "SeatLeftReason": ({"left", "kicked", "no_show"}, None),
    "SeatDroppedReason": ({"left", "missed_deadlines"}, None),
    "DeckStep": ({"chose", "drew", "redrew", "picked", "removed", "finished"}, None),
    "FinishReason": ({"final", "lead", "most_fans"}, None),
    "BotLine": ({"greeting", "farewell"}, None),
}


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema["components"]["schemas"]


def rest_enum(components: dict[str, Any], component: str, field: str) -> set[str]:
    if "discriminator" in components[component]:  # a log's union of its kinds
        assert components[component]["discriminator"]["propertyName"] == field
        return set(components[component]["discriminator"]["mapping"])
    found = components[component]["properties"][field]
    found = found.get("items", found)  # a list's items
    ref = found.get("$ref") or (found.get("allOf") or found["oneOf"])[0]["$ref"]
    return set(components[ref.rsplit("/", 1)[1]]["enum"]) - {None, ""}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(SETS))
def test_an_enum_holds_the_servers_set_in_both_apis(name: str, openapi: dict[str, Any]) -> None:
    values, rest = SETS[name]
    query = "query($n: String!) { __type(name: $n) { enumValues { name } } }"
    found = GraphQL().data(query, n=name)["__type"]
    assert {value["name"] for value in found["enumValues"]} == {member_name(v) for v in values}
    if rest is not None:
        assert rest_enum(openapi, *rest) == values


def own_types() -> set[str]:
    """The GraphQL types of the tournaments and the catalogue (the leagues convert apart)."""
    found = set()
    for module in (types, queries, cardstats, card_schema, card_types):
        for value in vars(module).values():
            definition = getattr(value, "__strawberry_definition__", None)
            if definition is not None:
                found.add(definition.name)
    shaped = (  # their types: graphql_type's
        "cards.shapes",
        "tournaments.cardstats_shapes",
        "tournaments.shapes",
        "tournaments.log_shapes",
        "matches.shapes",
    )
    return found | {name for name, kind in SHAPES_DECLARED.items() if kind.__module__ in shaped}


@pytest.mark.django_db
def test_no_kind_or_status_of_the_schema_is_a_plain_string() -> None:
    """A field of this app named ``kind``, ``status``, ``level``, ``timing`` or ``box`` is an
    enum (the tournament log's ``kind`` too: the kinds ``publish`` is given, docs/protocol.md)."""
    query = "{ __schema { types { name fields { name type { name ofType { name } } } } } }"
    plain = []
    for found in GraphQL().data(query)["__schema"]["types"]:
        if found["name"] not in own_types():
            continue
        for field in found["fields"] or ():
            named = field["type"]["ofType"] or field["type"]
            if field["name"] in ENUM_NAMES and named["name"] == "String":
                plain.append(f"{found['name']}.{field['name']}")
    assert plain == []


ENUM_NAMES = {"kind", "status", "level", "timing", "box", "confidence"}
