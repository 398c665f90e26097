"""The GraphQL socket's protocol (graphql-transport-ws), coded as ``/graphql/`` over HTTP is.

Strawberry's handler, with three changes:

- **Queries and mutations run.** The resolvers read and write through Django's ORM. It refuses
  to run in the event loop (``SynchronousOnlyOperation``). So a query or mutation is executed by
  ``Schema.execute_sync`` in Django's sync thread. Subscriptions stay async.
- **Every refusal is coded.** An operation may be refused before it ran: syntax, validation,
  limits, variables, an unknown ``operationName``, a malformed ``subscribe`` payload. It gets an
  ``error`` message whose errors carry ``extensions.code``. Strawberry closed the socket on some
  and sent uncoded errors on others.
- **A message the server cannot read closes the socket.** (Not JSON, nested deeper than the JSON
  limit, not an object with a ``type``.) The close code is ``4400``, with a reason that starts
  with the code (``too_deep: …``). A deep message used to get no answer.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import orjson
from channels.db import database_sync_to_async
from django.utils.translation import gettext as _
from graphql import GraphQLError, OperationDefinitionNode, OperationType, parse
from graphql.error import GraphQLSyntaxError
from strawberry.exceptions import MissingQueryError
from strawberry.schema.exceptions import CannotGetOperationTypeError
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
    Operation,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import SubscribeMessage
from strawberry.types.execution import ExecutionResult

from apikit.asyncapi import CloseCode, Message, Socket, declare_socket, frame
from apikit.graphql import MAX_BODY_BYTES
from infra.parsers import JsonTooDeep, loads_shallow
from server.schema import MAX_TOKENS

log = logging.getLogger(__name__)

INVALID_MESSAGE = 4400  # graphql-transport-ws: the server cannot take the message

OBJECT: dict[str, object] = {"type": "object"}
ID: dict[str, object] = {"type": "string", "minLength": 1, "description": "The operation's id."}
ERRORS: dict[str, object] = {
    "type": "array",
    "description": "GraphQL errors, each with `extensions.code` (docs/graphql.md).",
    "items": {"type": "object", "required": ["message"]},
}
PING = Message("gqlPing", "A keep-alive; answered `pong`.", frame("ping", {"payload": OBJECT}, ()))
PONG = Message("gqlPong", "The answer to a `ping`.", frame("pong", {"payload": OBJECT}, ()))
COMPLETE = Message(
    "gqlComplete",
    "The operation is over (server), or the client stops it (client).",
    frame("complete", {"id": ID}),
)
SUBSCRIBE_PAYLOAD: dict[str, object] = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "operationName": {"type": ["string", "null"]},
        "variables": {"type": ["object", "null"]},
        "extensions": {"type": ["object", "null"]},
    },
    "required": ["query"],
}
GRAPHQL_SOCKET = declare_socket(
    Socket(
        name="graphql_socket",
        title="the GraphQL socket",
        address="/ws/graphql/",
        description=(
            "GraphQL over WebSocket (graphql-transport-ws): subscriptions, and queries and "
            "mutations as over HTTP (docs/graphql.md). Also served at `/graphql/`. The "
            "operations and their results are those of the GraphQL schema (schema.graphql)."
        ),
        subprotocol="`graphql-transport-ws`.",
        sends=(
            Message(
                "gqlConnectionAck", "The connection is accepted.", frame("connection_ack", {}, ())
            ),
            Message(
                "gqlNext",
                "A result of the operation (`data`, `errors`).",
                frame("next", {"id": ID, "payload": OBJECT}),
            ),
            Message(
                "gqlError",
                "The operation was refused before it ran.",
                frame("error", {"id": ID, "payload": ERRORS}),
            ),
            COMPLETE,
            PING,
            PONG,
        ),
        receives=(
            Message(
                "gqlConnectionInit",
                "Opens the connection; `payload.Authorization`: `Token <organizer token>`.",
                frame("connection_init", {"payload": OBJECT}, ()),
            ),
            Message(
                "gqlSubscribe",
                "Runs an operation.",
                frame("subscribe", {"id": ID, "payload": SUBSCRIBE_PAYLOAD}),
            ),
            COMPLETE,
            PING,
            PONG,
        ),
        close_codes=(
            CloseCode(
                INVALID_MESSAGE,
                "A message the server cannot read; the reason starts "
                "with its code (`too_deep: …`, `parse_error: …`, `invalid: …`).",
            ),
            CloseCode(4401, "`subscribe` before `connection_ack`."),
            CloseCode(
                4403,
                "`connection_init` with a token no organizer holds; or `forbidden_origin`: a "
                "page of another site (before any message).",
            ),
            CloseCode(4408, "No `connection_init` in time."),
            CloseCode(4409, "A `subscribe` with the id of a running operation."),
            CloseCode(4429, "A second `connection_init`."),
        ),
    )
)


class Unreadable:
    """A socket message the server cannot read, and its close reason's code."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message


def socket_loads(text: str | bytes) -> object:
    """A socket message, or ``Unreadable`` when it is too large or nests too deep.

    Text that is not JSON raises, as for strawberry's reader."""
    if len(text) > MAX_BODY_BYTES:
        return Unreadable("too_large", f"A message is at most {MAX_BODY_BYTES} bytes.")
    try:
        return loads_shallow(text)
    except JsonTooDeep as error:
        return Unreadable("too_deep", str(error))


def socket_dumps(message: object) -> str:
    """A message's JSON text, by orjson.

    A subscription sends one per event. The standard library's encoder took a fifth of the
    socket's time per event. What orjson cannot write is written as strawberry writes it. (That
    is a number past 64 bits, or a type of its own.)"""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


def coded_error(code: str, message: str) -> dict[str, object]:
    return {"message": message, "extensions": {"code": code, "details": {}}}


class CodedTransportWSHandler(BaseGraphQLTransportWSHandler[dict[str, object], None]):
    async def handle_message(self, message: object) -> None:
        if isinstance(message, Unreadable):
            await self.close_coded(message.code, message.message)
        elif not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.close_coded("invalid", 'A message is a JSON object with a "type".')
        else:
            await super().handle_message(message)  # type: ignore[arg-type]

    async def handle_invalid_message(self, error_message: str) -> None:
        code = "parse_error" if "JSON" in error_message else "invalid"
        await self.close_coded(code, error_message)

    async def close_coded(self, code: str, message: str) -> None:
        reason = f"{code}: {message}".encode()[:123].decode(errors="ignore")  # a reason's most
        await self.websocket.close(code=INVALID_MESSAGE, reason=reason)

    async def handle_subscribe(self, message: SubscribeMessage) -> None:
        sub_id, payload = message.get("id"), message.get("payload")
        if not isinstance(sub_id, str) or not sub_id:
            await self.close_coded("invalid", '"subscribe" needs a string "id".')
            return
        if not self.connection_acknowledged or sub_id in self.operations:
            await super().handle_subscribe(message)  # the protocol's own closes (4401, 4409)
            return
        limit = self.max_subscriptions_per_connection
        if limit is not None and len(self.operations) >= limit:
            await self.refuse(sub_id, "too_many_operations", f"At most {limit} at once.")
            return
        problem = payload_problem(payload)
        if problem is not None:
            await self.refuse(sub_id, "invalid", problem)
            return
        await super().handle_subscribe(message)

    async def refuse(self, sub_id: str, code: str, message: str) -> None:
        refusal: Any = {"id": sub_id, "type": "error", "payload": [coded_error(code, message)]}
        await self.send_message(refusal)

    @staticmethod
    def _get_pre_execution_close_reason(error: GraphQLError) -> str | None:
        return None  # a refused operation gets an ``error`` message; the socket stays open

    async def run_operation(self, operation: Operation[dict[str, object], None]) -> None:
        if operation_type(operation.query, operation.operation_name) is OperationType.SUBSCRIPTION:
            await super().run_operation(operation)
            return
        try:
            result = await database_sync_to_async(self.schema.execute_sync)(
                operation.query,
                variable_values=operation.variables,
                context_value=self.context,
                root_value=self.root_value,
                operation_name=operation.operation_name,
            )
        except (CannotGetOperationTypeError, MissingQueryError) as error:
            message = str(error) or "The document has no operation of that name."
            if isinstance(error, CannotGetOperationTypeError):
                message = error.as_http_error_reason()
            await operation.send_initial_errors([coded_graphql_error("invalid_query", message)])
            return
        except Exception:  # a bug: logged, never shown
            log.exception("GraphQL socket operation failed")
            message = _("A bug on the server: it was logged.")
            await operation.send_initial_errors([coded_graphql_error("server_error", message)])
            return
        await send_result(operation, result)


def coded_graphql_error(code: str, message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"code": code, "details": {}})


async def send_result(
    operation: Operation[dict[str, object], None], result: ExecutionResult
) -> None:
    """``error`` for an operation refused before it ran. Its errors have no ``path``.

    Else ``next`` with the data and the fields' errors, then ``complete``."""
    if result.data is None and result.errors and all(e.path is None for e in result.errors):
        await operation.send_initial_errors(result.errors)
        return
    await operation.send_next(result)
    await operation.send_operation_message({"id": operation.id, "type": "complete"})


def operation_type(query: str, operation_name: str | None) -> OperationType | None:
    """The type of the operation the message names.

    ``None`` if the document does not parse or does not name it. Execution then reports why,
    coded."""
    try:
        document = parse(query, no_location=True, max_tokens=MAX_TOKENS)
    except GraphQLSyntaxError:
        return None
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    for definition in operations:
        name = definition.name.value if definition.name else None
        if operation_name is None or name == operation_name:
            return definition.operation
    return None


def payload_problem(payload: object) -> str | None:
    """Why a ``subscribe`` payload cannot be run (``None`` if it can)."""
    if not isinstance(payload, dict):
        return '"payload" is an object: {"query": …, "variables": {…}}.'
    for field, kind, name in (
        ("operationName", str, "a string"),
        ("variables", dict, "an object"),
        ("extensions", dict, "an object"),
    ):
        if payload.get(field) is not None and not isinstance(payload[field], kind):
            return f"`{field}` is {name} (or null)."
    if not isinstance(payload.get("query"), str):
        return "`query` is a string."
    return None
