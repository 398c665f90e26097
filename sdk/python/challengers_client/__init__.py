"""A typed Python client of the Challengers! game server (sdk/python/README.md).

``Client`` has one method per REST operation (``operations.py``, generated from
schema/openapi.yaml), each answer typed by ``models`` (TypedDicts: plain dicts at run time), and
``Client.stream`` the tournament's event stream (typed by ``stream_models``, generated from
schema/asyncapi.yaml), resumed after a drop. Standard library only, and ``websockets`` for the
stream.
"""

from . import models, stream_models
from .client import ApiError, Client, StreamError, StreamEvent, StreamRefused, TournamentStream

__all__ = [
    "ApiError",
    "Client",
    "StreamError",
    "StreamEvent",
    "StreamRefused",
    "TournamentStream",
    "models",
    "stream_models",
]
