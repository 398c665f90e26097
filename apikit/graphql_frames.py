"""A subscription's events completed by a plan made once, not executed one by one.

By default graphql-core executes the whole operation again for every event a subscription
yields. It collects the root field, coerces its arguments, builds resolve infos and completes
every leaf. That is ~0.2 ms an event, four times what the WebSocket stream spends on its frame.

A subscription's selection is fixed. It may ask only plain fields of the event: attributes read
by strawberry's default resolver, scalars and enums, ``__typename``. Any fragments and
``@include`` / ``@skip`` are collected once, with the operation's variables. Then a plan is made
at the first event. It completes each event in a few dict writes:
``{root key: {response key: serialize(value)}}``, the answer a full execution gives. Anything
else is executed as before: a resolver of its own, an object or list field, a value the field
cannot take, a field middleware.

The plan reads the event alone. The frame it completes is the one the subscription's generator
yielded for its own viewer (``matches.observer`` decided its content). Nothing is kept from one
event, subscription or viewer to the next.

Strawberry then wraps each event's result in its extensions' hooks. ``LeanExtensionsRunner``
asks only the extensions that override them. The others answer nothing either way.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from graphql import (
    ExecutionResult,
    GraphQLEnumType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    OperationType,
    Undefined,
)
from graphql.execution.collect_fields import (
    FieldDetailsList,
    collect_fields,
    collect_subfields,
)
from strawberry.extensions import SchemaExtension
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types import ExecutionContext, StreamExecutionResult
from strawberry.types.field import StrawberryField

from apikit.graphql_execution import ReusingExecutionContext

TYPENAME = "__typename"
DEFINITION = GraphQLCoreConverter.DEFINITION_BACKREF  # a GraphQL field's strawberry field


@dataclass(frozen=True, slots=True)
class Leaf:
    """A selected field: how to read it from the event and serialize it.

    ``read`` is strawberry's default resolver, given the attribute's ``name``. It is ``None``
    for ``__typename``."""

    key: str
    read: Callable[[Any, str], Any] | None
    name: str
    serialize: Callable[[Any], Any]
    nullable: bool


@dataclass(frozen=True, slots=True)
class FramePlan:
    """How every event of one subscription is completed."""

    root_key: str
    type_name: str
    leaves: tuple[Leaf, ...]

    def data(self, event: object) -> dict[str, object] | None:
        """The event's completed data, or ``None`` when a full execution must say.

        That is a null where none may be, or a value the scalar refuses."""
        if event is None:
            return None
        completed: dict[str, object] = {}
        try:
            for leaf in self.leaves:
                if leaf.read is None:
                    completed[leaf.key] = self.type_name
                    continue
                value = leaf.read(event, leaf.name)
                if value is not None:
                    value = leaf.serialize(value)
                    if value is None or value is Undefined:
                        return None
                elif not leaf.nullable:
                    return None
                completed[leaf.key] = value
        except Exception:  # the full execution reports it, coded
            return None
        return {self.root_key: completed}


class Answered:
    """An event completed by the plan: what its per-event executor would have answered."""

    __slots__ = ("result",)

    def __init__(self, result: ExecutionResult) -> None:
        self.result = result

    def execute_operation(self, serially: bool | None = None) -> ExecutionResult:
        return self.result


class FrameExecutionContext(ReusingExecutionContext):
    """``ReusingExecutionContext`` completing a subscription's events by its plan."""

    # Made at the subscription's first event (``False``: not yet; ``None``: not plannable).
    frame_plan: FramePlan | bool | None = False

    def build_per_event_executor(self, payload: object) -> Any:
        """The executor of one event (graphql-core runs its ``execute_operation``).

        It is the plan's answer when there is one. Else it is graphql-core's copy of this
        executor."""
        if self.frame_plan is False:
            self.frame_plan = plan_of(self)
        if isinstance(self.frame_plan, FramePlan):
            data = self.frame_plan.data(payload)
            if data is not None:
                return Answered(self.finish(ExecutionResult(data, None)))
        return super().build_per_event_executor(payload)


def plan_of(executor: ReusingExecutionContext) -> FramePlan | None:
    """The plan of a subscription that selects plain fields of its event, else ``None``."""
    manager = executor.middleware_manager
    if manager is not None and manager.middlewares:
        return None  # a field middleware sees every resolved field
    if executor.operation.operation is not OperationType.SUBSCRIPTION:
        return None
    root_type = executor.schema.subscription_type
    assert root_type is not None
    roots = collect_fields(
        executor.schema, executor.fragments, executor.variable_values, root_type, executor.operation
    )
    if roots.new_defer_usages or len(roots.grouped_field_set) != 1:
        return None
    ((root_key, details),) = roots.grouped_field_set.items()
    field = root_type.fields.get(details[0].node.name.value)
    event_type = None if field is None else _named(field.type)
    if not isinstance(event_type, GraphQLObjectType):
        return None
    leaves = _leaves(executor, event_type, details)
    return None if leaves is None else FramePlan(root_key, event_type.name, leaves)


def _leaves(
    executor: ReusingExecutionContext, event_type: GraphQLObjectType, details: FieldDetailsList
) -> tuple[Leaf, ...] | None:
    collected = collect_subfields(
        executor.schema,
        executor.fragments,
        executor.variable_values,
        executor.operation,
        event_type,
        details,
    )
    if collected.new_defer_usages:
        return None
    leaves = []
    for key, nodes in collected.grouped_field_set.items():
        leaf = _leaf(event_type, key, nodes)
        if leaf is None:
            return None
        leaves.append(leaf)
    return tuple(leaves)


def _leaf(event_type: GraphQLObjectType, key: str, nodes: FieldDetailsList) -> Leaf | None:
    """The leaf of a response key, if a plain field (one name, no arguments)."""
    names = {details.node.name.value for details in nodes}
    if any(details.node.arguments for details in nodes) or len(names) != 1:
        return None
    (name,) = names
    if name == TYPENAME:
        return Leaf(key, None, name, str, nullable=False)
    field = event_type.fields.get(name)
    if field is None or field.args or not getattr(field.resolve, "_is_default", False):
        return None  # a resolver of its own: executed
    scalar = _named(field.type)
    definition = (field.extensions or {}).get(DEFINITION)
    if not isinstance(scalar, GraphQLScalarType | GraphQLEnumType) or not isinstance(
        definition, StrawberryField
    ):
        return None  # an enum's value is serialized as a scalar's: its member's name
    nullable = not isinstance(field.type, GraphQLNonNull)
    # What the field's resolver does (strawberry's basic field): read the attribute.
    read = definition.default_resolver
    return Leaf(key, read, definition.python_name, scalar.serialize, nullable)


def _named(type_: object) -> object:
    """The type without its non-null wrapper. A list stays a list: it is not planned."""
    return type_.of_type if isinstance(type_, GraphQLNonNull) else type_


class LeanExtensionsRunner(SchemaExtensionsRunner):
    """Strawberry's runner, asking only the extensions that have something to say.

    Every event of a subscription goes through ``get_extensions_results`` and
    ``on_stream_result``. Strawberry awaits each extension's ``get_results``. It builds a context
    of each one's hook. That costs ~10 us an event for extensions that answer ``{}`` and have no
    hook. The answer is the same: an extension that does not override a method gives nothing,
    as the base class does."""

    def __init__(
        self, execution_context: ExecutionContext, extensions: list[SchemaExtension] | None = None
    ) -> None:
        super().__init__(execution_context, extensions)
        reporting = [e for e in self.extensions if _overrides(e, "get_results")]
        self.reporting = SchemaExtensionsRunner(execution_context, reporting)
        self.streaming = any(_overrides(e, "on_stream_result") for e in self.extensions)

    async def get_extensions_results(self, ctx: ExecutionContext) -> dict[str, object]:
        return await self.reporting.get_extensions_results(ctx)

    def on_stream_result(self, result: StreamExecutionResult) -> Any:
        return super().on_stream_result(result) if self.streaming else NO_HOOK


NO_HOOK: AbstractAsyncContextManager[None] = nullcontext()


def _overrides(extension: SchemaExtension, method: str) -> bool:
    return getattr(type(extension), method) is not getattr(SchemaExtension, method)
