"""GraphQL's execution, with the completed objects of fixed content reused (``Completions``).

By default graphql-core completes every selected field of every object one call at a time. The
all-fields tournament view is ~400 fields. Completing them costs more than reading the view, which
is cached per tournament version and viewer (REST's answer too).

An object whose content is a fixed value says so with a ``completion_key`` attribute: the
value's fingerprint. Its completed result is then kept per key and selection. The next request
selecting the same fields of the same content reuses that result. The key holds the whole
content, so a changed view is a new key, never a stale answer. A completion that reported an
error is not kept.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator

from django.utils.translation import gettext as _
from graphql import (
    ExecutionResult,
    ExperimentalIncrementalExecutionResults,
    GraphQLError,
    GraphQLObjectType,
    GraphQLResolveInfo,
    OperationType,
)
from graphql.execution.collect_fields import DeferUsage, FieldDetailsList
from graphql.execution.incremental.incremental_executor import DeliveryGroup
from graphql.pyutils import AwaitableOrValue, Path, RefMap, UndefinedType
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext, validate_document

from apikit.graphql_limits import document_errors

KEPT = 512  # completed objects kept per process (a tournament view is a few kilobytes)
BUDGET_SECONDS = 5.0  # a query's execution, from its first field to its answer


class OverBudget(BaseException):
    """Raised at the first field resolved past a query's deadline.

    A ``BaseException``, because this must unwind the whole execution at once. An ``Exception``
    would become that field's error, and graphql-core would go on with the next field."""


def over_budget_error() -> GraphQLError:
    message = _("The query ran over its budget of %(seconds)s seconds and was stopped.") % {
        "seconds": BUDGET_SECONDS
    }
    details = {"budget_seconds": BUDGET_SECONDS}
    return GraphQLError(message, extensions={"code": "query_too_slow", "details": details})


# A completed object's key: its type, its content's key, its selection, its variables.
Key = tuple[str, bytes, tuple[int, ...], str]


class Completions:
    """A small LRU of completed objects, shared by the requests of a process."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self.kept: OrderedDict[Key, tuple[tuple[object, ...], dict[str, object]]]
        self.kept = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Key, nodes: tuple[object, ...]) -> dict[str, object] | None:
        """The object completed for ``key`` by the very nodes ``nodes``.

        The key names the nodes by ``id``. Comparing them keeps a node of another query, at a
        reused address, from being taken for them."""
        with self.lock:
            found = self.kept.get(key)
            if found is None or any(a is not b for a, b in zip(found[0], nodes, strict=True)):
                return None
            self.kept.move_to_end(key)
            return found[1]

    def put(self, key: Key, nodes: tuple[object, ...], completed: dict[str, object]) -> None:
        with self.lock:
            self.kept[key] = (nodes, completed)
            if len(self.kept) > self.size:
                self.kept.popitem(last=False)


COMPLETIONS = Completions()


class ReusingExecutionContext(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's execution context, reusing completed objects of fixed content.

    It also stops a query at its first field past ``BUDGET_SECONDS`` (``query_too_slow``, no
    ``data``). The thread that ran it is free again then, not when the last field is done.
    Queries run synchronously, since the resolvers read the ORM.

    A mutation is not stopped. Its first field does its write, and its answer is owed. Nor is a
    subscription. Its events follow the frames' plan, or are executed each on its own."""

    deadline: float | None = None

    def execute_operation(
        self, serially: bool | None = None
    ) -> AwaitableOrValue[ExecutionResult | ExperimentalIncrementalExecutionResults]:
        if self.operation.operation is not OperationType.QUERY:
            return super().execute_operation(serially)
        self.deadline = time.monotonic() + BUDGET_SECONDS
        try:
            return super().execute_operation(serially)
        except OverBudget:
            self.collected_errors.add(over_budget_error(), None)
            return self.finish(self.build_response(None))

    def execute_field(
        self,
        parent_type: GraphQLObjectType,
        source: object,
        field_details_list: FieldDetailsList,
        path: Path,
        position_context: RefMap[DeferUsage, DeliveryGroup] | None,
    ) -> AwaitableOrValue[object] | UndefinedType:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OverBudget
        return super().execute_field(
            parent_type, source, field_details_list, path, position_context
        )

    def complete_object_value(
        self,
        return_type: GraphQLObjectType,
        field_details_list: FieldDetailsList,
        info: GraphQLResolveInfo,
        path: Path,
        result: object,
        position_context: RefMap[DeferUsage, DeliveryGroup] | None,
    ) -> AwaitableOrValue[dict[str, object]]:
        content = getattr(result, "completion_key", None)
        if content is None:
            return super().complete_object_value(
                return_type, field_details_list, info, path, result, position_context
            )
        # The selection (its nodes, the same objects while the parser cache holds the query)
        # and the variables it may read (@include, arguments) decide what is completed.
        nodes = tuple(details.node for details in field_details_list)
        selection = tuple(id(node) for node in nodes)
        key = (return_type.name, content, selection, repr(self.variable_values.coerced))
        found = COMPLETIONS.get(key, nodes)
        if found is not None:
            return found
        errors = len(self.collected_errors.errors)
        completed = super().complete_object_value(
            return_type, field_details_list, info, path, result, position_context
        )
        if isinstance(completed, dict) and len(self.collected_errors.errors) == errors:
            COMPLETIONS.put(key, nodes, completed)
        return completed


class TextValidationCache(SchemaExtension):
    """Strawberry's ``ValidationCache``, keyed by the query's text, not its parsed document.

    Per request, hashing the document and rules cost ~0.3 ms. That was an eighth of the whole
    tournament query. The schema and its rules are fixed. So the text decides the errors. The
    document's shape is bounded first (``apikit.graphql_limits``). A document over a limit is not
    validated further."""

    found: OrderedDict[str, list[GraphQLError]] = OrderedDict()
    size = 256
    lock = threading.Lock()

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        text = context.query or ""
        with self.lock:
            errors = self.found.get(text)
        if errors is None:
            document = context.graphql_document
            assert document is not None
            errors = document_errors(document) or validate_document(
                context.schema._schema, document, context.validation_rules
            )
            with self.lock:
                self.found[text] = errors
                if len(self.found) > self.size:
                    self.found.popitem(last=False)
        context.pre_execution_errors = errors
        yield
