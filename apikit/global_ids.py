"""An id GraphQL takes as the object's global ``ID`` (issue 41).

That is the ``id`` a ``Node`` carries (``TournamentView:7`` in base64). Until the next release it
may also be the plain number, deprecated. (That is its ``databaseId``, what the argument took as
an ``Int``.) ``apikit.actions`` types an action's id inputs so (``Ident.nodes``,
``Action.nodes``). A query's argument reads one with ``number_of``.

An ``Int`` variable may still stand where such an id is taken (``NumberVariables``). So a
document written for the ``Int`` arguments keeps working for one release, deprecated."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import overload

from django.utils.translation import gettext as _
from graphql import (
    GraphQLError,
    GraphQLID,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLType,
    OperationDefinitionNode,
    type_from_ast,
)
from graphql.validation import VariablesInAllowedPositionRule
from graphql.validation.rules.variables_in_allowed_position import allowed_variable_usage
from strawberry import relay
from strawberry.extensions import SchemaExtension

from infra.errors import ApplicationError

MAX_NUMBER = 2**31 - 1
_NUMBER = re.compile(r"[0-9]{1,10}")


@overload
def number_of(value: None, field: str, nodes: tuple[str, ...]) -> None: ...
@overload
def number_of(value: str | int, field: str, nodes: tuple[str, ...]) -> int: ...
def number_of(value: str | int | None, field: str, nodes: tuple[str, ...]) -> int | None:
    """The object's number that ``value`` names.

    ``value`` is a global id of one of ``nodes``, or the number itself (deprecated). Anything
    else is ``invalid``, a global id of another type included. The error names ``field`` (REST's
    field errors). It is raised before anything is read or written."""
    if value is None:
        return None
    text = str(value)
    found = _plain(text)
    if found is None:
        try:
            decoded = relay.GlobalID.from_id(text)
        except ValueError:
            decoded = None
        if decoded is not None and decoded.type_name in nodes:
            found = _plain(decoded.node_id)
    if found is None:
        raise ApplicationError(
            "invalid", _("Invalid input."), {field: [_("Not a global id of this API.")]}
        )
    return found


def _plain(text: str) -> int | None:
    if not _NUMBER.fullmatch(text) or not 0 < int(text) <= MAX_NUMBER:
        return None
    return int(text)


def described(text: str, nodes: tuple[str, ...]) -> str:
    """An id input's description, its deprecated form included."""
    kinds = " or ".join(f"`{node}`" for node in nodes)
    return (
        f"{text.rstrip('.')}: its global `id` (of a {kinds}). Deprecated: its number "
        "(`databaseId`) is still taken until the next release."
    )


# An Int variable where an ID is taken -----------------------------------------------------------


class NumberVariablesRule(VariablesInAllowedPositionRule):
    """graphql-core's rule, but an ``Int`` variable may stand where an ``ID`` is taken.

    An ``Int`` literal may, too. Both are deprecated: the id arguments and inputs were
    ``Int`` s."""

    def leave_operation_definition(self, operation: OperationDefinitionNode, *args: object) -> None:
        self.widened = set(self._widened(operation))
        super().leave_operation_definition(operation, *args)

    def _widened(self, operation: OperationDefinitionNode) -> Iterator[int]:
        """The variable usages allowed when an ``Int`` reads as an ``ID``."""
        schema = self.context.schema
        declared = {d.variable.name.value: d for d in operation.variable_definitions or ()}
        for usage in self.context.get_recursive_variable_usages(operation):
            definition = declared.get(usage.node.name.value)
            if definition is None or usage.type is None:
                continue
            widened = _as_id(type_from_ast(schema, definition.type))
            default = usage.default_value
            if widened and allowed_variable_usage(
                schema, widened, definition.default_value, usage.type, default
            ):
                yield id(usage.node)

    def report_error(self, error: GraphQLError) -> None:
        place = (error.nodes or [])[-1:]
        if place and id(place[0]) in self.widened and "in position expecting" in error.message:
            return
        super().report_error(error)


def _as_id(kind: GraphQLType | None) -> GraphQLType | None:
    """``kind`` with its ``Int`` read as an ``ID`` (``None``: it holds no ``Int``)."""
    if isinstance(kind, GraphQLNonNull):
        inner = _as_id(kind.of_type)
        return None if inner is None else GraphQLNonNull(inner)  # type: ignore[type-var]
    if isinstance(kind, GraphQLList):
        inner = _as_id(kind.of_type)
        return None if inner is None else GraphQLList(inner)
    return GraphQLID if kind is GraphQLInt else None


class NumberVariables(SchemaExtension):
    """Validates with ``NumberVariablesRule`` instead of graphql-core's rule."""

    def on_operation(self) -> Iterator[None]:
        context = self.execution_context
        context.validation_rules = tuple(
            NumberVariablesRule if rule is VariablesInAllowedPositionRule else rule
            for rule in context.validation_rules
        )
        yield
