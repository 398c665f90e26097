"""The root GraphQL schema: each app's ``graphql`` package composed into one, with its limits.

Every error of a response carries ``extensions.code``:

- a refusal of a service or selector: its REST code and ``details``;
- a query over the token limit: ``too_many_tokens``;
- a query refused for its shape (``apikit.graphql_limits``): ``query_too_deep``,
  ``too_many_aliases``, ``too_many_fragments``, ``too_many_fields``, ``too_many_definitions``;
- a query over its cost: ``query_too_costly`` (``apikit.graphql_cost``);
- a query run past its time: ``query_too_slow`` (``apikit.graphql_execution``);
- variables that do not fit their types: ``invalid_variables``;
- any other malformed query: ``invalid_query``;
- a bug: ``server_error``, logged, its message hidden.
"""

from __future__ import annotations

import logging
import re

import strawberry
from django.utils.translation import gettext as _
from graphql import GraphQLError
from graphql.validation.rules.max_introspection_depth_rule import MaxIntrospectionDepthRule
from rest_framework import exceptions
from strawberry.extensions import (
    AddValidationRules,
    MaxTokensLimiter,
    ParserCache,
    SchemaExtension,
)
from strawberry.extensions.runner import SchemaExtensionsRunner
from strawberry.schema.exceptions import CannotGetOperationTypeError
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from apikit.events import every_graphql_type
from apikit.global_ids import NumberVariables
from apikit.graphql import error_body_of
from apikit.graphql_cost import QueryCostRule
from apikit.graphql_execution import TextValidationCache
from apikit.graphql_frames import FrameExecutionContext, LeanExtensionsRunner
from cards.graphql import NODES as CARD_NODES
from cards.graphql import Query as CardsQuery
from infra.errors import ApplicationError, database_unavailable
from leagues.graphql.schema import Mutation as LeaguesMutation
from leagues.graphql.schema import Query as LeaguesQuery
from server.metrics_http import OperationLabel
from tournaments.graphql.queries import NODES
from tournaments.graphql.schema import Mutation as TournamentsMutation
from tournaments.graphql.schema import Query as TournamentsQuery
from tournaments.graphql.schema import Subscription

log = logging.getLogger(__name__)

MAX_TOKENS = 2000

# A limit's refusal, told by its message (strawberry's limiters report plain GraphQL errors).
LIMITS = (
    (re.compile(r"Maximum introspection depth exceeded"), "query_too_deep"),
    (re.compile(r"more than \d+ tokens"), "too_many_tokens"),
)

# graphql-core's refusal of a variable's value ("Variable '$id' got invalid value …", "… of
# required type 'Int!' was not provided"): the client's mistake, not the document's.
VARIABLE = re.compile(r"Variable '\$\w+'")

# The root composes every app's GraphQL, the leagues' too: this module is the one place outside
# ``leagues`` that imports it (tests/test_layers.py allows this module alone).
Query = merge_types("Query", (CardsQuery, TournamentsQuery, LeaguesQuery))
NODES.update(CARD_NODES)  # cards and card sets by ``node(id:)`` (the cards import no other app)
Mutation = merge_types("Mutation", (TournamentsMutation, LeaguesMutation))


def error_code(error: GraphQLError) -> dict[str, object]:
    """The ``extensions`` an error leaves with.

    A bug's message is replaced, and logged."""
    original = error.original_error
    if isinstance(original, ApplicationError | exceptions.ValidationError):
        body = error_body_of(original)
        error.message = str(body["message"])  # REST's (a DRF error's own text is its details' repr)
        return {"code": body["code"], "details": body["details"]}
    if isinstance(original, GraphQLError | CannotGetOperationTypeError):
        original = None  # graphql-core's refusal of a value, or an unknown operationName
    if original is not None and (unavailable := database_unavailable(original)):
        log.warning("GraphQL resolver failed: %s", unavailable.message, exc_info=original)
        error.message = unavailable.message
        return {"code": unavailable.code, "details": unavailable.extra}
    if original is not None:
        log.error("GraphQL resolver failed", exc_info=original)
        error.message = _("A bug on the server: it was logged.")
        return {"code": "server_error", "details": {}}
    for pattern, code in LIMITS:
        if pattern.search(error.message):
            return {"code": code, "details": {}}
    if VARIABLE.match(error.message):
        return {"code": "invalid_variables", "details": {}}
    return {"code": "invalid_query", "details": {}}


class CodedSchema(strawberry.Schema):
    def create_extensions_runner(
        self, execution_context: ExecutionContext, extensions: list[SchemaExtension]
    ) -> SchemaExtensionsRunner:
        return LeanExtensionsRunner(execution_context=execution_context, extensions=extensions)

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        for error in errors:
            if not (error.extensions or {}).get("code"):
                error.extensions = {**(error.extensions or {}), **error_code(error)}


# The rules added to graphql-core's, built once. Depth, aliases, fragments and fields are
# bounded before any rule runs (``apikit.graphql_limits``, in ``TextValidationCache``):
# strawberry's depth and alias limiters followed every spread, 2^n steps for n nested levels.
# graphql-core's introspection depth rule bounds introspection, whose types nest without end.
LIMIT_RULES = (
    MaxIntrospectionDepthRule,
    QueryCostRule,
)
CACHED_QUERIES = 256  # distinct query texts whose parse and validation are kept

schema = CodedSchema(
    query=Query,
    types=every_graphql_type(),  # each event kind's type: fields return their interface
    mutation=Mutation,
    subscription=Subscription,
    execution_context_class=FrameExecutionContext,
    extensions=[
        NumberVariables,  # an ``Int`` variable where an ``ID`` is taken (deprecated)
        lambda: AddValidationRules(list(LIMIT_RULES)),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: ParserCache(maxsize=CACHED_QUERIES),
        TextValidationCache,  # strawberry's ValidationCache, keyed by the query's text
        OperationLabel,
    ],
)
