"""Who is calling: ``Authorization: Bearer <seat token>``, or nobody (a spectator)."""

from __future__ import annotations

from rest_framework.request import Request

from config.errors import ApplicationError
from tournaments.models import Seat
from tournaments.services.common import seat_for_token


class BadToken(ApplicationError):
    status_code = 401


def bearer(request: Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise BadToken("bad_token", "Send `Authorization: Bearer <seat token>`.")
    return token.strip()


def caller(request: Request) -> Seat | None:
    """The calling seat, ``None`` for a spectator; an unknown token is refused."""
    token = bearer(request)
    if token is None:
        return None
    seat = seat_for_token(token)
    if seat is None:
        raise BadToken("bad_token", "That seat token is not known.")
    return seat
