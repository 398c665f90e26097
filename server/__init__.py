"""The composition root.

It holds the ASGI and WSGI entry points, the URLs and socket routes, and the root GraphQL schema.
It also holds the Celery app, health and the served contract. It imports every app; nothing
imports it. The Celery app loads with Django (``server`` is installed). So ``shared_task`` binds
to it."""

from server.celery import app as celery_app

__all__ = ["celery_app"]
