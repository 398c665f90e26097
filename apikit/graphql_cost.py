"""A query's cost, bounded before it runs (``query_too_costly``).

Depth, aliases and tokens bound a document's size, not the rows it reads. Fifteen aliases of
``cards(first: 100)`` are within all three limits, yet answer 1,500 cards. So the cost counts
the items a query may return from its pages:

- A paged field (a connection: one with ``first``) costs its ``first`` (or ``last``). That is
  multiplied by the pages around it. ``cardSets(first: 10) { … }`` inside nothing costs 10.
  ``leagues(first: 10) { … }`` holding a page of 20 costs 10 + 10 x 20.
- A size given by a variable is charged at its ceiling (``CEILINGS``). Validation is cached per
  text, before variables are known. A size left out is charged at its default (``DEFAULTS``,
  ``apikit.graphql_pages``).
- A list without pages (a tournament's parks, a hand of cards) multiplies the pages inside it by
  ``LIST_FACTOR``. A connection's ``edges`` are its page, already charged.
- Everything else is free.

An operation costing more than ``MAX_COST`` is refused before any resolver runs. The error
carries ``details.cost`` and ``details.budget``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLList,
    GraphQLNamedType,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    get_named_type,
    get_nullable_type,
)

from apikit.graphql import DEFAULT_PAGE, MAX_PAGE
from apikit.graphql_pages import EVENTS_DEFAULT, EVENTS_MAX

MAX_COST = 1000
LIST_FACTOR = 10
# A page's largest and default size where they are not MAX_PAGE and DEFAULT_PAGE.
EVENT_PAGES = (("MatchView", "events"), ("Query", "tournamentLog"))
CEILINGS = dict.fromkeys(EVENT_PAGES, EVENTS_MAX)
DEFAULTS = dict.fromkeys(EVENT_PAGES, EVENTS_DEFAULT)
SIZES = ("first", "last")


class QueryCostRule(ValidationRule):
    """Refuses an operation whose cost is over ``MAX_COST`` (``query_too_costly``).

    A cost is linear in its walk's multiplier. So each fragment's cost is computed once, at a
    multiplier of 1, and scaled at every spread. (A walk that followed every spread took 2^n
    steps for n levels of ``fragment Fi { ...Fi+1 ...Fi+1 }``.)"""

    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        self.fragment_costs: dict[str, int] = {}

    def enter_operation_definition(self, node: OperationDefinitionNode, *_rest: object) -> None:
        root = self.context.schema.get_root_type(node.operation)
        if root is None:
            return
        cost = self.selection_cost(node.selection_set, root, 1, frozenset())
        if cost > MAX_COST:
            message = _(
                "The query costs %(cost)s, over the budget of %(budget)s (docs/graphql.md)."
            ) % {
                "cost": cost,
                "budget": MAX_COST,
            }
            details = {"cost": cost, "budget": MAX_COST}
            extensions = {"code": "query_too_costly", "details": details}
            self.report_error(GraphQLError(message, node, extensions=extensions))

    def selection_cost(
        self,
        selections: SelectionSetNode | None,
        parent: GraphQLNamedType,
        multiplier: int,
        fragments: frozenset[str],
    ) -> int:
        if selections is None:
            return 0
        total = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += self.field_cost(selection, parent, multiplier, fragments)
            elif isinstance(selection, InlineFragmentNode):
                inner = self.type_named(selection, parent)
                total += self.selection_cost(selection.selection_set, inner, multiplier, fragments)
            elif isinstance(selection, FragmentSpreadNode):
                total += self.spread_cost(selection, multiplier, fragments)
        return total

    def spread_cost(
        self, spread: FragmentSpreadNode, multiplier: int, fragments: frozenset[str]
    ) -> int:
        name = spread.name.value
        cost = self.fragment_costs.get(name)
        if cost is None:
            cost = self.fragment_cost(name, fragments)
            self.fragment_costs[name] = cost
        return multiplier * cost

    def fragment_cost(self, name: str, fragments: frozenset[str]) -> int:
        fragment = self.context.get_fragment(name)
        if fragment is None or name in fragments:  # unknown or cyclic: other rules refuse it
            return 0
        inner = self.context.schema.get_type(fragment.type_condition.name.value)
        if inner is None:
            return 0
        return self.selection_cost(fragment.selection_set, inner, 1, fragments | {name})

    def type_named(
        self, fragment: InlineFragmentNode, parent: GraphQLNamedType
    ) -> GraphQLNamedType:
        if fragment.type_condition is None:
            return parent
        return self.context.schema.get_type(fragment.type_condition.name.value) or parent

    def field_cost(
        self, node: FieldNode, parent: GraphQLNamedType, multiplier: int, fragments: frozenset[str]
    ) -> int:
        fields = getattr(parent, "fields", None)
        field: GraphQLField | None = fields.get(node.name.value) if fields else None
        if field is None:  # __typename, or unknown (refused by another rule)
            return 0
        own = 0
        if "first" in field.args:
            size = page_size(node, field, (parent.name, node.name.value))
            own, multiplier = multiplier * size, multiplier * size
        elif isinstance(get_nullable_type(field.type), GraphQLList) and "pageInfo" not in (
            fields or {}
        ):
            multiplier *= LIST_FACTOR  # a connection's edges are its page, charged already
        inner = get_named_type(field.type)
        return own + self.selection_cost(node.selection_set, inner, multiplier, fragments)


def page_size(node: FieldNode, field: GraphQLField, where: tuple[str, str]) -> int:
    """The size a paged field is charged at.

    That is its ``first`` or ``last`` literal, the larger if both (the resolver refuses that
    anyway). A variable is charged at its ceiling. A size left out is charged at its default."""
    sizes = [a.value for a in node.arguments or () if a.name.value in SIZES]
    if any(not isinstance(size, IntValueNode) for size in sizes):
        return CEILINGS.get(where, MAX_PAGE)  # a variable (or null): unknown when validated
    if sizes:
        return max(max(int(size.value), 0) for size in sizes if isinstance(size, IntValueNode))
    default = field.args["first"].default_value
    return default if isinstance(default, int) else DEFAULTS.get(where, DEFAULT_PAGE)
