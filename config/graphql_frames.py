"""A subscription's events completed by a plan made once, not executed one by one.

graphql-core executes the whole operation again for every event a subscription yields: it
collects the root field, coerces its arguments, builds resolve infos and completes every leaf,
~0.2 ms an event, four times what the WebSocket stream spends on its frame. A subscription's
selection is fixed, so when it asks only plain fields of the event (attributes read by
strawberry's default resolver, scalars, ``__typename``; any fragments and ``@include`` /
``@skip`` are collected once with the operation's variables) the plan made from it at the first
event completes each event in a few dict writes: ``{root key: {response key: serialize(value)}}``,
the answer a full execution gives. Anything else (a resolver of its own, an object or list
field, a value the field cannot take, a field middleware) is executed as before.

The plan reads the event alone: the frame it completes is the one the subscription's generator
yielded for its own viewer (``matches.observer`` decided its content), and nothing is kept from
one event, subscription or viewer to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graphql import (
    ExecutionResult,
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

from config.graphql_execution import ReusingExecutionContext

TYPENAME = "__typename"


@dataclass(frozen=True, slots=True)
class Leaf:
    """A selected field: its response key, the resolver reading it (``None`` for
    ``__typename``), its scalar type and whether it may be null."""

    key: str
    resolve: Callable[..., Any] | None
    scalar: GraphQLScalarType | None
    nullable: bool


@dataclass(frozen=True, slots=True)
class FramePlan:
    """How every event of one subscription is completed."""

    root_key: str
    type_name: str
    leaves: tuple[Leaf, ...]

    def data(self, event: Any) -> dict[str, Any] | None:
        """The event's completed data, or ``None`` where only a full execution can say what
        the answer is (a null where none may be, a value the scalar refuses)."""
        if event is None:
            return None
        completed: dict[str, Any] = {}
        for leaf in self.leaves:
            if leaf.resolve is None:
                completed[leaf.key] = self.type_name
                continue
            value = _serialized(leaf, leaf.resolve(event, None))
            if value is Undefined:
                return None
            completed[leaf.key] = value
        return {self.root_key: completed}


def _serialized(leaf: Leaf, value: Any) -> Any:
    if value is None:
        return None if leaf.nullable else Undefined
    assert leaf.scalar is not None
    try:
        serialized = leaf.scalar.serialize(value)
    except Exception:  # the full execution reports it, coded
        return Undefined
    return Undefined if serialized is None else serialized


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

    def build_per_event_executor(self, payload: Any) -> Any:
        """The executor of one event (graphql-core runs its ``execute_operation``): the plan's
        answer when it has one, else a copy of this executor as graphql-core makes it."""
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
    """The leaf a response key reads, if it is a plain field (one name, no arguments)."""
    names = {details.node.name.value for details in nodes}
    if any(details.node.arguments for details in nodes) or len(names) != 1:
        return None
    (name,) = names
    if name == TYPENAME:
        return Leaf(key, None, None, nullable=False)
    field = event_type.fields.get(name)
    if field is None or field.args or not getattr(field.resolve, "_is_default", False):
        return None  # a resolver of its own: executed
    scalar = _named(field.type)
    if not isinstance(scalar, GraphQLScalarType):
        return None
    return Leaf(key, field.resolve, scalar, nullable=not isinstance(field.type, GraphQLNonNull))


def _named(type_: Any) -> Any:
    """The type without its non-null wrapper (a list stays a list: not planned)."""
    return type_.of_type if isinstance(type_, GraphQLNonNull) else type_
