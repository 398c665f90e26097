"""Who is looking: the one resolver of a viewer that REST, the stream and GraphQL share.

A seat token names a seat. It is stored hashed. With no token the caller is a spectator. A token of
another tournament makes the caller a spectator of this one. It may act only where it sits. Every
transport alike refuses a token no seat holds (``bad_token``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils.translation import gettext as _

from infra.errors import ApplicationError, ForbiddenError, NotFoundError
from matches.observer import SPECTATOR, Viewer
from tournaments.models import OrganizerToken, Seat, Tournament

ORGANIZE = "tournaments.organize"


SeatRow = Seat
"""The caller's seat as the token resolver returns it: the name transports annotate it with (they
hand it to services and to ``viewer_in``, and never read the models themselves)."""


class BadToken(ApplicationError):
    status_code = 401


def hash_token(token: str) -> str:
    """What is stored of a token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of_token(token: str | None) -> Seat | None:
    """The seat a bearer token belongs to, or ``None`` without one. An unknown token is refused."""
    if not token:
        return None
    seat = Seat.objects.select_related("tournament").filter(token_hash=hash_token(token)).first()
    if seat is None:
        raise BadToken("bad_token", _("That seat token is not known."))
    return seat


@dataclass(frozen=True, slots=True)
class Organizer:
    """A user allowed to run tournaments without a seat (``Authorization: Token …``)."""

    user_id: int
    name: str


def organizer_of_token(token: str) -> Organizer:
    """The organizer an organizer token belongs to.

    An unknown token, or an inactive user, is ``bad_token``. A user without the
    ``tournaments.organize`` permission is ``not_organizer``.
    """
    row = OrganizerToken.objects.select_related("user").filter(token_hash=hash_token(token)).first()
    if row is None or not row.user.is_active:
        raise BadToken("bad_token", _("That organizer token is not known."))
    if not row.user.has_perm(ORGANIZE):
        raise ForbiddenError(
            "not_organizer",
            _(
                "This account may not organize tournaments (a new account waits for an "
                "admin's approval)."
            ),
        )
    return Organizer(user_id=row.user_id, name=row.user.get_username())


def viewer_in(seat: Seat | None, tournament_id: int) -> Viewer:
    """The viewer at ``tournament_id``: the seat if it sits there, else a spectator.

    Every reader takes this one type (``matches.observer.Viewer``). It is resolved once per
    request.
    """
    if seat is None or seat.tournament_id != tournament_id:
        return SPECTATOR
    return Viewer(seat_id=seat.pk, number=seat.number)


def tournament_event_seq(tournament_id: int) -> int:
    """The last seq of the tournament's log. ``not_found`` for an unknown tournament."""
    found = Tournament.objects.filter(pk=tournament_id).values_list("event_seq", flat=True).first()
    if found is None:
        raise NotFoundError("not_found", _("No such tournament."))
    return found


def require_tournament(tournament_id: int) -> None:
    """``not_found`` unless the tournament exists."""
    tournament_event_seq(tournament_id)


def tournament_id_of_code(code: str) -> int:
    """The id of the tournament with room ``code``, else ``unknown_code``.

    The code is read as joining reads it.
    """
    found = (
        Tournament.objects.filter(code=code.strip().upper()).values_list("pk", flat=True).first()
    )
    if found is None:
        raise NotFoundError("unknown_code", _("No tournament has that room code."))
    return found


def require_seat(seat: Seat | None, tournament: Tournament) -> Seat:
    """The caller's seat at this tournament, or a coded refusal."""
    if seat is None:
        raise ForbiddenError("seat_required", _("Send your seat token: spectators cannot act."))
    if seat.tournament_id != tournament.pk:
        raise ForbiddenError(
            "wrong_tournament", _("That seat token belongs to another tournament.")
        )
    return seat
