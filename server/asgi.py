"""ASGI entry point: Daphne serves HTTP and WebSockets from here."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything that imports models (the consumers behind the routes).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from infra.wsorigin import OriginGuard  # noqa: E402
from server.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Every socket route: no Origin (a program) is let in, a foreign page is refused, coded.
        "websocket": OriginGuard(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
