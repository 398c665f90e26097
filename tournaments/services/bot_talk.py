"""What the bots say at the table: a greeting as the tournament starts, "gg" once it is over.

A table's words, not the interface's: shown as written, in every language. Each is a public
``chat`` event like a person's message (``tournaments.services.chat``), written in the caller's
locked transaction.
"""

from __future__ import annotations

from tournaments.models import SeatKind, Tournament
from tournaments.services.events import publish

BOT_GREETING = "Hi all, good luck and have fun!"
BOT_FAREWELL = "gg"


def bots_say(tournament: Tournament, text: str) -> None:
    """Each bot seat says ``text`` (a dropped person's seat, played by a bot, stays silent)."""
    bots = tournament.seats.filter(kind=SeatKind.BOT, dropped=False).order_by("number")
    for bot in bots:
        publish(tournament, "chat", {"seat": bot.number, "name": bot.name, "text": text})
