"""Table chat: short messages of the seats, kept in the tournament's log.

A message is a public ``chat`` event, so it is numbered, resumable (``after=N``) and kept with
the tournament like any event; the host's mutes are ``chat_mute`` events. Whether a seat is
muted and how many messages it sent lately are read from those rows (no second record).
Clients render a message as text only: it is never HTML.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApplicationError, ConflictError, ForbiddenError, NotFoundError
from tournaments.models import Seat, Status, Tournament, TournamentEvent
from tournaments.selectors.viewers import require_seat
from tournaments.services.common import locked_tournament
from tournaments.services.events import publish
from tournaments.services.lobby import require_host

if TYPE_CHECKING:
    from tournaments.services.lobby import Actor

CHAT_MAX_CHARS = 280
CHAT_BURST = 5  # messages a seat may send within CHAT_WINDOW
CHAT_WINDOW = timedelta(seconds=10)


class TooFast(ApplicationError):
    status_code = 429


def chat_post(*, tournament_id: int, seat: Seat | None, text: str) -> dict[str, Any]:
    """A seat says ``text`` (whitespace collapsed) at the table; the event's payload."""
    words = " ".join(str(text).split())
    if not words:
        raise ApplicationError("chat_empty", _("Write something to send."))
    if len(words) > CHAT_MAX_CHARS:
        limit = {"max": CHAT_MAX_CHARS}
        message = _("At most %(max)s characters.") % limit
        raise ApplicationError("chat_too_long", message, limit)
    with locked_tournament(tournament_id) as tournament:
        own = require_seat(seat, tournament)
        if tournament.status == Status.CANCELLED:
            raise ConflictError("already_over", _("This tournament was cancelled."))
        if muted_seats(tournament).get(own.number):
            raise ForbiddenError("chat_muted", _("The host muted your seat in the chat."))
        _check_pace(tournament, own.number)
        payload: dict[str, Any] = {"seat": own.number, "name": own.name, "text": words}
        publish(tournament, "chat", payload)
        return {"seq": tournament.event_seq, **payload}


def chat_mute(*, tournament_id: int, seat: Actor, number: int, muted: bool) -> None:
    """The host mutes (or unmutes) a seat in the chat; setting the same value changes nothing."""
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        if not tournament.seats.filter(number=number).exists():
            message = _("No seat %(number)s in this tournament.") % {"number": number}
            raise NotFoundError("no_such_seat", message)
        if bool(muted_seats(tournament).get(number)) != muted:
            publish(tournament, "chat_mute", {"seat": number, "muted": muted})


def muted_seats(tournament: Tournament) -> dict[int, bool]:
    """Each seat's latest mute state, as the host's ``chat_mute`` events left it."""
    rows = TournamentEvent.objects.filter(tournament=tournament, kind="chat_mute").order_by("seq")
    return {mute["seat"]: mute["muted"] for mute in rows.values_list("payload", flat=True)}


def _check_pace(tournament: Tournament, number: int) -> None:
    since = timezone.now() - CHAT_WINDOW
    recent = TournamentEvent.objects.filter(
        tournament=tournament, kind="chat", visible_at__gte=since, payload__seat=number
    ).count()
    if recent >= CHAT_BURST:
        wait = {"retry_after": int(CHAT_WINDOW.total_seconds())}
        message = _("At most %(burst)s messages in a row: wait.") % {"burst": CHAT_BURST}
        raise TooFast("chat_too_fast", message, wait)
