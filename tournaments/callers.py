"""Who is calling: a seat, an organizer or nobody (a spectator).

A seat sends ``Authorization: Bearer <seat token>``. An organizer sends ``Authorization: Token
<organizer token>``.

The public API knows no other credential. There is no password (Basic) and no admin session. So it
can never be used to guess the admin's password or act with an admin's cookie.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from tournaments.selectors.chat import GuestRow, guest_of_token
from tournaments.selectors.viewers import (
    BadToken,
    Organizer,
    SeatRow,
    organizer_of_token,
    seat_of_token,
)


def credential(request: Request) -> tuple[str, str] | None:
    """``("bearer", token)``, ``("token", token)`` or ``None``.

    Any other scheme is refused.
    """
    return credential_of(request.headers.get("Authorization", ""))


def credential_of(header: str) -> tuple[str, str] | None:
    """An ``Authorization`` value, read as ``credential`` reads it.

    GraphQL's socket sends it in ``connection_init``, not as a header.
    """
    scheme, _space, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() not in ("bearer", "token") or not token.strip():
        raise BadToken(
            "bad_token",
            _("Send `Authorization: Bearer <seat token>` (or `Token <organizer token>`)."),
        )
    return scheme.lower(), token.strip()


def actor(request: Request) -> SeatRow | Organizer | None:
    """The calling seat or organizer, ``None`` for a spectator.

    An unknown token is refused.
    """
    return actor_of(request.headers.get("Authorization", ""))


def actor_of(header: str) -> SeatRow | Organizer | None:
    """``actor`` for an ``Authorization`` value."""
    found = credential_of(header)
    if found is None:
        return None
    scheme, token = found
    return organizer_of_token(token) if scheme == "token" else seat_of_token(token)


def chat_author_of(header: str) -> SeatRow | GuestRow | None:
    """Who posts to a table chat: a seat, a chat spectator, or ``None``.

    A chat spectator is one who joined the chat. Its chat token is a bearer token only there. Any
    other token is refused as ``actor_of`` refuses it. An organizer chats as a spectator would.
    """
    found = credential_of(header)
    if found is not None and found[0] == "bearer" and (guest := guest_of_token(found[1])):
        return guest
    author = actor_of(header)
    return None if isinstance(author, Organizer) else author


def caller(request: Request) -> SeatRow | None:
    """The calling seat, ``None`` for a spectator.

    An organizer reads as a spectator. An unknown token is refused.
    """
    found = actor(request)
    return None if isinstance(found, Organizer) else found


def organizer(request: Request) -> Organizer | None:
    """The calling organizer, if the caller is one."""
    found = actor(request)
    return found if isinstance(found, Organizer) else None


class SeatTokenAuthentication(BaseAuthentication):
    """DRF's only authentication: a seat token, or a spectator.

    Any other scheme is refused. The tournament views read the seat themselves (``caller``). This
    class keeps every other endpoint (the card catalogue) from taking a password or a session.
    """

    def authenticate(self, request: Request) -> tuple[None, SeatRow | Organizer] | None:
        found = actor(request)
        return None if found is None else (None, found)

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class SeatTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for the seat token."""

    target_class = SeatTokenAuthentication
    name = "seatToken"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "A seat token."}
