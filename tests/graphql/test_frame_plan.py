"""A subscription's events completed by its plan (``apikit.graphql_frames``) are the answers a
full execution gives, for every selection the plan takes; any other selection is executed."""

from __future__ import annotations

import enum
from collections.abc import AsyncGenerator, Iterator
from typing import Any

import pytest
import strawberry
from strawberry.extensions import MaxTokensLimiter, SchemaExtension
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.scalars import JSON
from strawberry.types import ExecutionResult

from apikit.graphql_execution import ReusingExecutionContext
from apikit.graphql_frames import FrameExecutionContext, FramePlan, LeanExtensionsRunner


@strawberry.enum
class Mood(enum.Enum):
    CALM = "calm"
    LOUD = "loud"


@strawberry.type
class Event:
    seq: int
    kind: str
    payload: JSON | None
    tags: list[str] = strawberry.field(default_factory=list)
    mood: Mood = "calm"  # type: ignore[assignment]  # a shape holds an enum field's value

    @strawberry.field
    def doubled(self) -> int:
        return self.seq * 2


EVENTS = [
    Event(seq=1, kind="started", payload=JSON({"round": 1})),
    Event(seq=2, kind="hidden", payload=None),
    Event(seq=3, kind="scored", payload=JSON([1, {"a": None}]), tags=["x"], mood=Mood.LOUD),
]
PLANS: list[Any] = []


@strawberry.type
class Query:
    ping: int = 0


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def events(self, upto: int = 3) -> AsyncGenerator[Event, None]:
        for event in EVENTS[:upto]:
            yield event


class Recording(FrameExecutionContext):
    """Keeps the plan each subscription made, for the test to see which path ran."""

    def build_per_event_executor(self, payload: Any) -> Any:
        executor = super().build_per_event_executor(payload)
        PLANS.append(self.frame_plan)
        return executor


planned = strawberry.Schema(Query, subscription=Subscription, execution_context_class=Recording)
executed = strawberry.Schema(
    Query, subscription=Subscription, execution_context_class=ReusingExecutionContext
)


async def answers(schema: strawberry.Schema, query: str, **variables: Any) -> list[Any]:
    stream = await schema.subscribe(query, variable_values=variables)
    assert not isinstance(stream, ExecutionResult), stream  # refused before it ran
    got = []
    async for result in stream:
        errors = [error.formatted for error in result.errors or []]
        got.append((result.data, errors))
    return got


PLAIN = [
    "subscription { events { seq kind payload } }",
    "subscription { e: events(upto: 2) { s: seq k: kind p: payload seq __typename } }",
    "subscription { events { ...Fields kind } } fragment Fields on Event { seq payload }",
    "subscription { events { seq mood } }",  # an enum: its value or its member
    "subscription($all: Boolean!) "
    "{ events { seq payload @include(if: $all) kind @skip(if: $all) } }",
]


@pytest.mark.parametrize("query", PLAIN)
async def test_a_plain_selection_is_planned_and_answered_as_executed(query: str) -> None:
    variables = {"all": True} if "$all" in query else {}
    PLANS.clear()
    got = await answers(planned, query, **variables)
    assert got == await answers(executed, query, **variables)
    assert len(got) >= 2 and all(errors == [] for _, errors in got)
    assert PLANS and all(isinstance(plan, FramePlan) for plan in PLANS)


@pytest.mark.parametrize(
    "query",
    [
        "subscription { events { seq doubled } }",  # a resolver of its own
        "subscription { events { seq tags } }",  # a list
    ],
)
async def test_any_other_selection_is_executed(query: str) -> None:
    PLANS.clear()
    got = await answers(planned, query)
    assert got == await answers(executed, query)
    assert PLANS and all(plan is None for plan in PLANS)


async def test_a_value_the_field_cannot_take_gets_the_executed_error() -> None:
    EVENTS.append(Event(seq=None, kind="broken", payload=None))  # type: ignore[arg-type]
    try:
        query = "subscription { events(upto: 4) { seq kind } }"
        got = await answers(planned, query)
        assert got == await answers(executed, query)
    finally:
        EVENTS.pop()
    data, errors = got[-1]
    assert data is None and errors[0]["path"] == ["events", "seq"]


async def test_a_value_the_enum_does_not_hold_gets_the_executed_error() -> None:
    EVENTS.append(Event(seq=4, kind="broken", payload=None, mood="sulky"))  # type: ignore[arg-type]
    try:
        query = "subscription { events(upto: 4) { seq mood } }"
        got = await answers(planned, query)
        assert got == await answers(executed, query)
    finally:
        EVENTS.pop()
    data, errors = got[-1]
    assert data is None and errors[0]["path"] == ["events", "mood"]


class Counting(SchemaExtension):
    """Reports how many results it saw and marks each: what a lean runner must still ask."""

    def __init__(self, *, execution_context: Any = None) -> None:
        super().__init__(execution_context=execution_context)
        self.seen = 0

    def on_stream_result(self, result: Any) -> Iterator[None]:
        self.seen += 1
        yield

    def get_results(self) -> dict[str, Any]:
        return {"seen": self.seen}


class LeanSchema(strawberry.Schema):
    def create_extensions_runner(
        self, execution_context: Any, extensions: list[SchemaExtension]
    ) -> SchemaExtensionsRunner:
        return LeanExtensionsRunner(execution_context=execution_context, extensions=extensions)


async def test_the_lean_runner_asks_the_extensions_that_report_or_hook_as_strawberry_does() -> None:
    query = "subscription { events { seq } }"
    got = {}
    for schema_class in (LeanSchema, strawberry.Schema):
        schema = schema_class(
            Query,
            subscription=Subscription,
            execution_context_class=Recording,
            extensions=[Counting, lambda: MaxTokensLimiter(max_token_count=100)],
        )
        stream = await schema.subscribe(query)
        assert not isinstance(stream, ExecutionResult)
        got[schema_class] = [(r.data, r.extensions) async for r in stream]
    assert got[LeanSchema] == got[strawberry.Schema]
    assert [extensions for _, extensions in got[LeanSchema]] == [{"seen": n} for n in (0, 1, 2)]
