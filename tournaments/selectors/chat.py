"""The table chat of a tournament, as its log keeps it, and the spectators who joined it.

The chat is public: anyone watching may read it.
"""

from __future__ import annotations

from apikit.shapes import row
from matches.release import released
from tournaments.models import ChatGuest, TournamentEvent
from tournaments.selectors.viewers import hash_token
from tournaments.shapes import ChatMessage


def chat_log(*, tournament_id: int) -> list[ChatMessage]:
    """Every chat message of the tournament, oldest first, with its log number."""
    rows = TournamentEvent.objects.filter(
        released(), tournament_id=tournament_id, kind="chat"
    ).order_by("seq")
    return [message_of(seq, payload) for seq, payload in rows.values_list("seq", "payload")]


def message_of(seq: int, payload: dict[str, object]) -> ChatMessage:
    """The chat message a log event's payload holds.

    A spectator's message names its number. A bot's set line carries the line's name.
    """
    return row(
        ChatMessage, payload, seq=seq, spectator=payload.get("spectator"), line=payload.get("line")
    )


GuestRow = ChatGuest
"""A spectator who joined a chat, as transports name it (they never read the models)."""


def guest_of_token(token: str) -> ChatGuest | None:
    """The spectator a chat token belongs to, or ``None``."""
    return ChatGuest.objects.filter(token_hash=hash_token(token)).first()
