"""Table chat: short messages of the seats, kept in the tournament's log.

Named spectators may too, when the host allows it. A message is a public ``chat`` event. So it is
numbered, resumable (``after=N``) and kept with the tournament like any event. The host's mutes are
``chat_mute`` events. Its choice whether spectators may chat is a ``chat_settings`` event. Whether
an author is muted, and how many messages it sent lately, are read from those rows. There is no
second record. A spectator chats with a token it gets by name (``chat_guest_join``). The token's
``ChatGuest`` row holds its limits and mutes. It sees nothing more than any spectator. Clients
render a message as text only: it is never HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, NotRequired, TypedDict

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.errors import ApplicationError, ConflictError, ForbiddenError, NotFoundError
from matches.release import released_since
from tournaments.models import ChatGuest, Seat, Status, Tournament, TournamentEvent
from tournaments.selectors.viewers import require_seat
from tournaments.services.common import locked_tournament, new_token
from tournaments.services.events import publish
from tournaments.services.lobby import require_host

if TYPE_CHECKING:
    from tournaments.services.lobby import Actor

CHAT_MAX_CHARS = 280
CHAT_BURST = 5  # messages an author may send within CHAT_WINDOW
CHAT_WINDOW = timedelta(seconds=10)
GUEST_NAME_CHARS = 24
MAX_GUESTS = 200  # spectators who may join one tournament's chat

Author = Seat | ChatGuest | None
# Who a ``chat_mute`` names: ("seat", number) or ("spectator", number).
AuthorKey = tuple[str, int]


class ChatMute(TypedDict):
    """A ``chat_mute`` event's payload: the seat's or spectator's number, and its state."""

    seat: NotRequired[int]
    spectator: NotRequired[int]
    muted: bool


class TooFast(ApplicationError):
    status_code = 429


@dataclass(frozen=True)
class GuestTicket:
    """A spectator's chat identity and its token, shown once."""

    guest: ChatGuest
    token: str


def chat_post(*, tournament_id: int, author: Author, text: str) -> tuple[int, dict[str, object]]:
    """A seat, or an admitted spectator, says ``text`` at the table.

    Whitespace is collapsed. Return the event's ``seq`` and payload.
    """
    words = _words(text)
    with locked_tournament(tournament_id) as tournament:
        if tournament.status == Status.CANCELLED:
            raise ConflictError("already_over", _("This tournament was cancelled."))
        key, payload = _signed(tournament, author)
        if muted_authors(tournament).get(key):
            raise ForbiddenError("chat_muted", _("The host muted you in the chat."))
        _check_pace(tournament, key)
        payload["text"] = words
        publish(tournament, "chat", payload)
        return tournament.event_seq, payload


def _words(text: str) -> str:
    words = " ".join(str(text).split())
    if not words:
        raise ApplicationError("chat_empty", _("Write something to send."))
    if len(words) > CHAT_MAX_CHARS:
        limit = {"max": CHAT_MAX_CHARS}
        message = _("At most %(max)s characters.") % limit
        raise ApplicationError("chat_too_long", message, limit)
    return words


def _signed(tournament: Tournament, author: Author) -> tuple[AuthorKey, dict[str, object]]:
    """Who the message is from, as mutes name it and as its payload does.

    A caller who may not chat here gets a coded refusal.
    """
    if isinstance(author, ChatGuest):
        if author.tournament_id != tournament.pk:
            message = _("That chat token belongs to another tournament.")
            raise ForbiddenError("wrong_tournament", message)
        _require_spectator_chat(tournament)
        signed: dict[str, object] = {"seat": None, "spectator": author.number, "name": author.name}
        return ("spectator", author.number), signed
    if author is None:
        _require_spectator_chat(tournament)
        raise ForbiddenError("chat_join_first", _("Join the chat with a name first."))
    own = require_seat(author, tournament)
    return ("seat", own.number), {"seat": own.number, "name": own.name}


def _require_spectator_chat(tournament: Tournament) -> None:
    if not tournament.spectator_chat:
        message = _("Spectators may not chat in this tournament.")
        raise ForbiddenError("chat_closed", message)


def chat_guest_join(*, tournament_id: int, name: str) -> GuestTicket:
    """A spectator joins the chat as ``name``, whitespace collapsed.

    No seat or other spectator may hold that name. Refused ``chat_closed`` unless the host lets
    spectators chat.
    """
    shown = " ".join(str(name).split())
    if not shown or len(shown) > GUEST_NAME_CHARS or not shown.isprintable():
        limit = {"max": GUEST_NAME_CHARS}
        message = _("A name is 1 to %(max)s printable characters.") % limit
        raise ApplicationError("chat_bad_name", message, limit)
    with locked_tournament(tournament_id) as tournament:
        _require_spectator_chat(tournament)
        if tournament.status == Status.CANCELLED:
            raise ConflictError("already_over", _("This tournament was cancelled."))
        guests = tournament.chat_guests
        taken = guests.filter(name__iexact=shown).exists()
        if taken or tournament.seats.filter(name__iexact=shown).exists():
            raise ConflictError("name_taken", _("Someone at this table already has that name."))
        last = guests.aggregate(last=Max("number"))["last"] or 0
        if last >= MAX_GUESTS:
            raise ConflictError("chat_full", _("This chat has no room for more spectators."))
        token, digest = new_token()
        guest = ChatGuest.objects.create(
            tournament=tournament, number=last + 1, name=shown, token_hash=digest
        )
        return GuestTicket(guest, token)


def chat_mute(
    *, tournament_id: int, seat: Actor, number: int, muted: bool, spectator: bool = False
) -> None:
    """The host mutes or unmutes a seat, or the spectator ``number`` when ``spectator``.

    Setting the same value changes nothing.
    """
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        rows = tournament.chat_guests if spectator else tournament.seats
        if not rows.filter(number=number).exists():
            message = _("No seat %(number)s in this tournament.") % {"number": number}
            if spectator:
                message = _("No spectator %(number)s in this chat.") % {"number": number}
            raise NotFoundError("no_such_seat", message)
        key: AuthorKey = ("spectator" if spectator else "seat", number)
        if bool(muted_authors(tournament).get(key)) != muted:
            publish(tournament, "chat_mute", {key[0]: number, "muted": muted})


def chat_settings(*, tournament_id: int, seat: Actor, spectator_chat: bool) -> None:
    """The host lets spectators chat, or stops them, until the tournament ends.

    Setting the same value changes nothing.
    """
    with locked_tournament(tournament_id) as tournament:
        require_host(seat, tournament)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise ConflictError("already_over", _("This tournament is over."))
        if tournament.spectator_chat != spectator_chat:
            tournament.spectator_chat = spectator_chat
            tournament.save(update_fields=["spectator_chat"])
            publish(tournament, "chat_settings", {"spectator_chat": spectator_chat})


def muted_authors(tournament: Tournament) -> dict[AuthorKey, bool]:
    """Each author's latest mute state, as the host's ``chat_mute`` events left it."""
    rows = TournamentEvent.objects.filter(tournament=tournament, kind="chat_mute").order_by("seq")
    return {_muted_key(mute): mute["muted"] for mute in rows.values_list("payload", flat=True)}


def _muted_key(mute: ChatMute) -> AuthorKey:
    if "spectator" in mute:
        return ("spectator", mute["spectator"])
    return ("seat", mute["seat"])


def _check_pace(tournament: Tournament, key: AuthorKey) -> None:
    since = timezone.now() - CHAT_WINDOW
    recent = TournamentEvent.objects.filter(
        released_since(since), tournament=tournament, kind="chat", **{f"payload__{key[0]}": key[1]}
    ).count()
    if recent >= CHAT_BURST:
        wait = {"retry_after": int(CHAT_WINDOW.total_seconds())}
        message = _("At most %(burst)s messages in a row: wait.") % {"burst": CHAT_BURST}
        raise TooFast("chat_too_fast", message, wait)
