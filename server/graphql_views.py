"""``/graphql/`` over HTTP, and the GraphQL socket (graphql-transport-ws).

Every refusal is coded as REST's are (docs/graphql.md). Some requests the server cannot take:
a body too big, not JSON, nested too deep, not one operation, a mutation over ``GET``, an
unknown ``operationName``. Each is answered with GraphQL's ``errors`` and REST's status, never
with strawberry's plain text or Django's HTML page. Each error has ``extensions.code`` and
``details``.

A browser's ``GET /graphql/`` gets GraphiQL from our own page
(``server/templates/graphiql/graphiql.html``). Its scripts and styles are vendored in
``server/static/graphiql/``. Strawberry's own page loads them from a CDN, and this server loads
nothing from elsewhere. The page runs under the Content-Security-Policy. It has no inline script
(its start is ``server/static/graphiql/start.js``). Fonts from ``data:`` URLs are its one
exception.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar, cast

from asgiref.typing import WebSocketScope
from channels.db import database_sync_to_async
from cross_web import DjangoHTTPRequestAdapter, HTTPException, SyncHTTPRequestAdapter
from csp.decorators import csp_update
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from strawberry.channels import GraphQLWSConsumer
from strawberry.django.context import StrawberryDjangoContext
from strawberry.django.views import GraphQLView
from strawberry.exceptions import ConnectionRejectionError, MissingQueryError
from strawberry.http import GraphQLRequestData
from strawberry.http.parse_content_type import parse_content_type
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType
from strawberry.types.unset import UnsetType

from apikit.graphql import MAX_BODY_BYTES
from infra.errors import (
    ApplicationError,
    database_unavailable,
    graphql_error_body,
    unavailable_json,
)
from infra.parsers import JsonTooDeep, loads_shallow
from server.graphql_socket import CodedTransportWSHandler, socket_dumps, socket_loads
from server.schema import schema
from tournaments.callers import actor_of

log = logging.getLogger(__name__)

SOCKET_PATH = "/ws/graphql/"  # the path the full stack's proxy sends to the WebSocket server
MAX_OPERATIONS = 20  # operations running at once on one socket (a client follows a few)

T = TypeVar("T")


class Refused(ApplicationError):
    """A request refused before anything ran, with its HTTP status."""

    def __init__(
        self, status: int, code: str, message: str, details: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(code, message, details)
        self.status_code = status


def refusal(error: ApplicationError, status: int) -> JsonResponse:
    """GraphQL's shape of a request error, coded as REST's body.

    It has no ``data``: nothing ran."""
    body = graphql_error_body(code=error.code, message=error.message, details=error.extra)
    return JsonResponse(body, status=status)


# GraphiQL's stylesheet embeds its fonts as data: URLs: the page's one exception to the
# Content-Security-Policy (config/settings.py). Its script is a file.
@csp_update({"font-src": ["data:"]})
def graphiql_page(request: HttpRequest) -> HttpResponse:
    return render(request, "graphiql/graphiql.html", {"socket_path": SOCKET_PATH})


@dataclass
class CallerContext(StrawberryDjangoContext):
    """Strawberry's context, with the caller check.

    Apps without tokens of their own call it (``apikit.graphql.require_known_caller``)."""

    check_caller: Callable[[str], object]


class LocalGraphiQLView(GraphQLView[CallerContext, None]):
    """Strawberry's view, whose IDE page is ours.

    The page loads only local assets. Subscriptions run on the socket."""

    def render_graphql_ide(self, request: HttpRequest) -> HttpResponse:
        return cast(HttpResponse, graphiql_page(request))

    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        try:
            _check_length(request)
            return self.run(request=request)
        except Refused as error:
            response = refusal(error, error.status_code)
            if error.status_code == 405:
                response["Allow"] = ", ".join(error.extra["allowed"])
            return response
        except ApplicationError as error:
            return refusal(error, error.status_code)
        except RequestDataTooBig:
            return refusal(_too_large(), 413)
        except HTTPException as error:  # strawberry's own refusals, should one get past ours
            if error.status_code == 405:
                response = refusal(ApplicationError("method_not_allowed", error.reason), 405)
                response["Allow"] = "GET, POST"
                return response
            return refusal(ApplicationError("bad_request", error.reason), 400)
        except Exception as error:  # a bug: logged, never shown (Django's DEBUG page is HTML)
            if unavailable := database_unavailable(error):  # not a bug: PostgreSQL is down
                log.warning("GraphQL request failed: %s", unavailable.message, exc_info=error)
                return unavailable_json(unavailable, graphql=True)
            log.exception("GraphQL request failed: %s %s", request.method, request.path)
            message = _("The server failed on this request; the error is logged.")
            return refusal(ApplicationError("server_error", message), 500)

    def decode_json(self, data: str | bytes) -> object:
        try:
            return loads_shallow(data)
        except JsonTooDeep as error:
            raise Refused(400, "too_deep", str(error)) from None
        except ValueError:  # not JSON, or not UTF-8
            raise Refused(400, "parse_error", _("The body is not valid JSON.")) from None

    def parse_http_body(
        self, request: SyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        """One operation ``{"query": "…", "variables": {…}, "operationName": "…"}``.

        Else a coded refusal. A body that is not JSON gets 415. A body that is not an object (a
        batch) is ``invalid``. So is a field of the wrong type, with its message in
        ``details``."""
        if request.method == "POST":
            media_type, _params = parse_content_type(request.content_type or "")
            if media_type != "application/json":
                sent = f'"{media_type}"' if media_type else "none"
                message = _("Content-Type %(sent)s is not read: send application/json.") % {
                    "sent": sent
                }
                raise Refused(415, "unsupported_media_type", message)
            assert isinstance(request, DjangoHTTPRequestAdapter)  # request_adapter_class
            body = request.request.body  # the bytes: the adapter's text fails on bad UTF-8
            if len(body) > MAX_BODY_BYTES:
                raise _too_large()
            return _request_data(self.decode_json(body))
        try:
            return super().parse_http_body(request)
        except HTTPException as error:
            raise Refused(400, "invalid", error.reason, {"body": [error.reason]}) from None

    def execute_single(  # type: ignore[override]
        self,
        request: HttpRequest,
        request_adapter: SyncHTTPRequestAdapter,
        request_data: GraphQLRequestData,
        **kwargs: object,
    ) -> ExecutionResult:
        """Strawberry's, with its plain-text refusals coded.

        Subscriptions are the socket's. (Strawberry's HTTP view would run them, and fail.)"""
        allowed = {OperationType.QUERY}
        if request_adapter.method == "POST":
            allowed.add(OperationType.MUTATION)
        try:
            result = self.schema.execute_sync(
                request_data.query,
                root_value=kwargs["root_value"],
                variable_values=request_data.variables,
                context_value=kwargs["context"],
                operation_name=request_data.operation_name,
                allowed_operation_types=allowed,
                operation_extensions=request_data.extensions,
            )
        except InvalidOperationTypeError as error:
            if error.operation_type is OperationType.SUBSCRIPTION:
                message = _("Subscriptions are served on the socket (%(path)s).") % {
                    "path": SOCKET_PATH
                }
                raise Refused(400, "invalid_query", message) from None
            message = _("Mutations are sent with POST (GET reads only).")
            raise Refused(405, "method_not_allowed", message, {"allowed": ["POST"]}) from None
        except MissingQueryError:
            message = _("No GraphQL query in the request.")
            raise Refused(400, "invalid", message, {"query": [message]}) from None
        except CannotGetOperationTypeError as error:  # an unknown or missing operationName
            raise Refused(400, "invalid_query", error.as_http_error_reason()) from None
        _raise_if_database_down(result)
        return result

    def get_context(self, request: HttpRequest, response: HttpResponse) -> CallerContext:
        return CallerContext(request=request, response=response, check_caller=actor_of)


def _raise_if_database_down(result: ExecutionResult) -> None:
    """Fail the whole request with a 503 when a field failed because PostgreSQL did not answer.

    ``dispatch`` answers it, as REST does. The other fields' data would be a partial picture."""
    for error in result.errors or []:
        if error.original_error is not None and database_unavailable(error.original_error):
            raise error.original_error


def _check_length(request: HttpRequest) -> None:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise Refused(400, "bad_request", _("Content-Length is not a number.")) from None
    if length > MAX_BODY_BYTES:
        raise _too_large()


def _too_large() -> Refused:
    message = _("The request body is over %(limit)s bytes.") % {"limit": MAX_BODY_BYTES}
    return Refused(413, "too_large", message, {"max_bytes": MAX_BODY_BYTES})


def _request_data(data: object) -> GraphQLRequestData:
    """One operation, checked.

    ``query`` and ``operationName`` are strings; ``variables`` and ``extensions``, objects. Each
    may be null or absent."""
    if isinstance(data, list):
        message = _("One operation per request: batches are not served.")
        raise Refused(400, "invalid", message, {"body": [message]})
    if not isinstance(data, dict):
        message = 'The body is a JSON object: {"query": …, "variables": {…}}.'
        raise Refused(400, "invalid", message, {"body": [message]})
    query = _field(data, "query", str, "a string")
    operation_name = _field(data, "operationName", str, "a string")
    variables = _field(data, "variables", dict, "an object")
    extensions = _field(data, "extensions", dict, "an object")
    return GraphQLRequestData(
        query=query, variables=variables, operation_name=operation_name, extensions=extensions
    )


def _field(data: dict[str, object], field: str, kind: type[T], name: str) -> T | None:
    """``data[field]`` if it is a ``kind`` or null (or absent), else ``invalid``."""
    value = data.get(field)
    if value is None or isinstance(value, kind):
        return value
    message = _("`%(field)s` is %(kind)s (or null).") % {"field": field, "kind": name}
    raise Refused(400, "invalid", message, {field: [message]})


graphql_view = csrf_exempt(LocalGraphiQLView.as_view(schema=schema, graphql_ide="graphiql"))


class GraphQLSocket(GraphQLWSConsumer[dict[str, object], None]):
    """graphql-transport-ws, coded (``server.graphql_socket``).

    A bad ``Authorization`` in ``connection_init`` is refused at once (``bad_token``)."""

    graphql_transport_ws_handler_class = CodedTransportWSHandler

    def decode_json(self, data: str | bytes) -> object:
        return socket_loads(data)

    def encode_json(self, data: object) -> str:
        return socket_dumps(data)

    async def get_context(self, request: object, response: object) -> dict[str, object]:
        """Strawberry's context, whose ``request`` is the HTTP request that opened the socket.

        It holds the client's address and headers. The mutations' throttles count per
        address."""
        return {"request": opening_request(self.scope), "ws": self}

    async def on_ws_connect(
        self, context: dict[str, object]
    ) -> UnsetType | dict[str, object] | None:
        params = context.get("connection_params") or {}
        header = params.get("Authorization", "") if isinstance(params, dict) else ""
        try:
            await database_sync_to_async(actor_of)(header if isinstance(header, str) else "")
        except ApplicationError as error:
            raise ConnectionRejectionError(
                {"code": error.code, "message": error.message}
            ) from error
        return await super().on_ws_connect(context)


def opening_request(scope: WebSocketScope) -> HttpRequest:
    """The socket's opening request as Django's ``HttpRequest`` (address and headers only)."""
    request = HttpRequest()
    client = scope.get("client") or ("", 0)
    request.META["REMOTE_ADDR"] = str(client[0])
    for name, value in scope.get("headers") or []:
        key = name.decode("latin-1").upper().replace("-", "_")
        request.META[f"HTTP_{key}"] = value.decode("latin-1")
    return request


# graphql-transport-ws alone: the legacy graphql-ws protocol is not served (docs/graphql.md).
graphql_socket = GraphQLSocket.as_asgi(
    schema=schema,
    subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
    max_subscriptions_per_connection=MAX_OPERATIONS,
)
