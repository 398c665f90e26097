"""Who is calling: ``Authorization: Bearer <seat token>``, or nobody (a spectator).

The public API knows no other credential: no password (Basic) and no admin session, so it can
never be used to guess the admin's password or act with an admin's cookie.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from tournaments.selectors.viewers import BadToken, seat_of_token

if TYPE_CHECKING:
    from tournaments.models import Seat


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
    return seat_of_token(bearer(request))


class SeatTokenAuthentication(BaseAuthentication):
    """DRF's only authentication: a seat token, or a spectator; any other scheme is refused.

    The tournament views read the seat themselves (``caller``); this class keeps every other
    endpoint (the card catalogue) from taking a password or a session instead.
    """

    def authenticate(self, request: Request) -> tuple[Any, Seat] | None:
        seat = caller(request)
        return None if seat is None else (None, seat)

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class SeatTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for the seat token."""

    target_class = SeatTokenAuthentication
    name = "seatToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "A seat token."}
