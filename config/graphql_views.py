"""``/graphql/`` over HTTP, and the GraphQL socket (graphql-transport-ws) for subscriptions.

A browser's ``GET /graphql/`` gets GraphiQL from our own page (``graphiql/graphiql.html``), whose
scripts and styles are vendored in ``config/static/graphiql/``: strawberry's own page loads them
from a CDN, and this server loads nothing from elsewhere.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from strawberry.channels import GraphQLWSConsumer
from strawberry.django.views import GraphQLView
from strawberry.exceptions import ConnectionRejectionError

from config.errors import ApplicationError
from config.schema import schema
from tournaments.api.auth import actor_of

SOCKET_PATH = "/ws/graphql/"  # the path the full stack's proxy sends to the WebSocket server


class LocalGraphiQLView(GraphQLView):
    """Strawberry's view, whose IDE page is ours: local assets only, subscriptions on the socket."""

    def render_graphql_ide(self, request: HttpRequest) -> HttpResponse:
        return render(request, "graphiql/graphiql.html", {"socket_path": SOCKET_PATH})

    def get_context(self, request: HttpRequest, response: HttpResponse) -> Any:
        """Strawberry's context, with the caller check the apps without tokens of their own
        call (``config.graphql.require_known_caller``)."""
        context: Any = super().get_context(request, response)
        context.check_caller = actor_of
        return context


graphql_view = csrf_exempt(LocalGraphiQLView.as_view(schema=schema, graphql_ide="graphiql"))


class GraphQLSocket(GraphQLWSConsumer):
    """A bad ``Authorization`` in ``connection_init`` is refused at once (``bad_token``)."""

    async def on_ws_connect(self, context: Any) -> Any:
        params = context.get("connection_params") or {}
        header = params.get("Authorization", "") if isinstance(params, dict) else ""
        try:
            await database_sync_to_async(actor_of)(header if isinstance(header, str) else "")
        except ApplicationError as error:
            raise ConnectionRejectionError(
                {"code": error.code, "message": error.message}
            ) from error
        return await super().on_ws_connect(context)


graphql_socket = GraphQLSocket.as_asgi(schema=schema)
