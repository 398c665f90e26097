"""The table chat of a tournament, as its log keeps it (public: anyone watching may read it),
and the spectators who joined it."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments.models import ChatGuest, TournamentEvent
from tournaments.selectors.viewers import hash_token


def chat_log(*, tournament_id: int) -> list[dict[str, Any]]:
    """Every chat message of the tournament, oldest first, with its log number."""
    rows = TournamentEvent.objects.filter(
        tournament_id=tournament_id, kind="chat", visible_at__lte=timezone.now()
    ).order_by("seq")
    return [{"seq": seq, **payload} for seq, payload in rows.values_list("seq", "payload")]


GuestRow = ChatGuest
"""A spectator who joined a chat, as transports name it (they never read the models)."""


def guest_of_token(token: str) -> ChatGuest | None:
    """The spectator a chat token belongs to (``None``: no spectator holds it)."""
    return ChatGuest.objects.filter(token_hash=hash_token(token)).first()
