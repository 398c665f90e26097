"""A document's shape, bounded before any other check reads it.

A GraphQL document is small (``MAX_TOKENS``). But a fragment may spread others, each of them
others again. ``fragment F1 on Query { ...F2 ...F2 }``, ``fragment F2 on Query { ...F3 ...F3 }``,
… doubles the fields per level. A walk that follows every spread takes 2^n steps. (Strawberry's
depth and alias limiters did, and the cost rule as it was.) 20 levels in 1 KB pinned a process
for minutes.

Here the document is walked once. Each fragment's shape is computed once (``Shapes``) and reused
at every spread. So the walk is linear in the document's size. Then these errors are found:

- ``query_too_deep``: a field inside more than ``MAX_DEPTH`` others. Introspection is apart: its
  depth is graphql-core's ``MaxIntrospectionDepthRule``'s.
- ``too_many_fragments``: spreads nested more than ``MAX_NESTING`` levels (a fragment spreading
  a fragment …). Or more than ``MAX_SPREADS`` spreads written in the document.
- ``too_many_aliases``: more than ``MAX_ALIASES`` aliases. Each fragment's are counted at every
  spread of it.
- ``too_many_fields``: more than ``MAX_FIELDS`` fields once every spread is replaced by its
  fragment. (That is what execution and the other rules may walk.)
- ``too_many_definitions``: more than ``MAX_DEFINITIONS`` operations and fragments.

A refused document is not validated further. Neither the standard rules nor the cost are asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionNode,
    SelectionSetNode,
)

MAX_DEPTH = 8  # the deepest field of the schema is 6 levels down (introspection aside)
MAX_NESTING = 8  # fragments spreading fragments (the introspection query nests 3)
MAX_SPREADS = 100
MAX_ALIASES = 15
MAX_FIELDS = 1000  # the all-fields tournament query is ~130, the introspection query ~200
MAX_DEFINITIONS = 50


@dataclass(frozen=True, slots=True)
class Shape:
    """A selection set's shape: its field and spread levels, its fields and aliases.

    The fields and aliases are counted with every spread replaced by its fragment."""

    depth: int = 0
    nesting: int = 0
    fields: int = 0
    aliases: int = 0

    def beside(self, other: Shape) -> Shape:
        return Shape(
            max(self.depth, other.depth),
            max(self.nesting, other.nesting),
            self.fields + other.fields,
            self.aliases + other.aliases,
        )


EMPTY = Shape()


class Shapes:
    """The shapes of one document's selection sets, each fragment's computed once."""

    def __init__(self, document: DocumentNode) -> None:
        self.fragments = {
            d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
        }
        self.known: dict[str, Shape] = {}
        self.open: set[str] = set()  # fragments being walked: a cycle counts for nothing

    def of_fragment(self, name: str) -> Shape:
        known = self.known.get(name)
        if known is not None:
            return known
        fragment = self.fragments.get(name)
        if fragment is None or name in self.open:  # unknown or cyclic: other rules refuse it
            return EMPTY
        self.open.add(name)
        inner = self.of_set(fragment.selection_set)
        self.open.discard(name)
        shape = Shape(inner.depth, inner.nesting + 1, inner.fields, inner.aliases)
        self.known[name] = shape
        return shape

    def of_set(self, selections: SelectionSetNode | None) -> Shape:
        total = EMPTY
        for selection in selections.selections if selections else ():
            total = total.beside(self.of_selection(selection))
        return total

    def of_selection(self, selection: SelectionNode) -> Shape:
        if isinstance(selection, FragmentSpreadNode):
            return self.of_fragment(selection.name.value)
        if isinstance(selection, InlineFragmentNode):
            return self.of_set(selection.selection_set)
        assert isinstance(selection, FieldNode)
        inner = self.of_set(selection.selection_set)
        alias = 1 if selection.alias else 0
        # strawberry's depth limiter skips introspection; its own rule bounds it
        depth = 0 if selection.name.value.startswith("__") else inner.depth + 1
        return Shape(depth, inner.nesting, inner.fields + 1, inner.aliases + alias)


def document_errors(document: DocumentNode) -> list[GraphQLError]:
    """The limits the document breaks, each a coded error.

    None broken: the document may be validated."""
    definitions = document.definitions
    if len(definitions) > MAX_DEFINITIONS:
        return [refusal("too_many_definitions", len(definitions), MAX_DEFINITIONS)]
    spreads = _spreads_written(document)
    if spreads > MAX_SPREADS:
        return [refusal("too_many_spreads", spreads, MAX_SPREADS)]
    shapes = Shapes(document)
    try:
        shape = EMPTY
        for operation in definitions:
            if isinstance(operation, OperationDefinitionNode):
                shape = shape.beside(shapes.of_set(operation.selection_set))
    except RecursionError:  # selections nested hundreds deep (the tokens allow it)
        return [refusal("query_too_deep", MAX_DEPTH + 1, MAX_DEPTH)]
    return _shape_errors(shape)


def _shape_errors(shape: Shape) -> list[GraphQLError]:
    checks = (
        ("query_too_deep", shape.depth - 1, MAX_DEPTH),  # a root field is inside none
        ("fragments_too_deep", shape.nesting, MAX_NESTING),
        ("too_many_aliases", shape.aliases, MAX_ALIASES),
        ("too_many_fields", shape.fields, MAX_FIELDS),
    )
    return [refusal(code, found, limit) for code, found, limit in checks if found > limit]


def _spreads_written(document: DocumentNode) -> int:
    """How many fragment spreads the document's text holds."""
    count = 0
    stack: list[SelectionSetNode | None] = [
        d.selection_set
        for d in document.definitions
        if isinstance(d, OperationDefinitionNode | FragmentDefinitionNode)
    ]
    while stack:
        selections = stack.pop()
        for selection in selections.selections if selections else ():
            if isinstance(selection, FragmentSpreadNode):
                count += 1
            else:
                stack.append(getattr(selection, "selection_set", None))
    return count


CODES = {"fragments_too_deep": "too_many_fragments", "too_many_spreads": "too_many_fragments"}
MESSAGES = {
    "query_too_deep": gettext_noop(
        "Fields are nested %(found)s deep, over the limit of %(limit)s."
    ),
    "fragments_too_deep": gettext_noop(
        "Fragments spread %(found)s levels deep, over the limit of %(limit)s."
    ),
    "too_many_spreads": gettext_noop("%(found)s fragment spreads, over the limit of %(limit)s."),
    "too_many_aliases": gettext_noop("%(found)s aliases, over the limit of %(limit)s."),
    "too_many_fields": gettext_noop(
        "%(found)s fields with fragments spread, over the limit of %(limit)s."
    ),
    "too_many_definitions": gettext_noop("%(found)s definitions, over the limit of %(limit)s."),
}


def refusal(kind: str, found: int, limit: int) -> GraphQLError:
    message = _(MESSAGES[kind]) % {"found": found, "limit": limit}
    code = CODES.get(kind, kind)
    extensions = {"code": code, "details": {"found": found, "limit": limit}}
    return GraphQLError(message, extensions=extensions)
