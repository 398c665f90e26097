"""``/graphql/`` over HTTP, and the GraphQL socket (graphql-transport-ws) for subscriptions.

GraphiQL is off: strawberry's page loads its scripts from a CDN, and this server loads nothing
from elsewhere (docs/graphql.md names clients to use instead).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.views.decorators.csrf import csrf_exempt
from strawberry.channels import GraphQLWSConsumer
from strawberry.django.views import GraphQLView
from strawberry.exceptions import ConnectionRejectionError

from config.errors import ApplicationError
from config.schema import schema
from tournaments.api.auth import actor_of

graphql_view = csrf_exempt(GraphQLView.as_view(schema=schema, graphql_ide=None))


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
