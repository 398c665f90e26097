"""What the bots say at the table: a greeting as the tournament starts, "gg" once it is over.

Each is a public ``chat`` event like a person's message (``tournaments.services.chat``). It is
written in the caller's locked transaction. Its ``text`` is the English line. Its ``line`` names
the line (``BOT_LINES``). So a client can show it in its reader's language, as the web client does.
"""

from __future__ import annotations

from tournaments.models import SeatKind, Tournament
from tournaments.services.events import publish

BOT_GREETING = "Hi all, good luck and have fun!"
BOT_FAREWELL = "gg"
# A bot's lines by name: the English text stored in the event.
BOT_LINES = {"greeting": BOT_GREETING, "farewell": BOT_FAREWELL}


def bots_say(tournament: Tournament, line: str) -> None:
    """Each bot seat says ``line``, a ``BOT_LINES`` name.

    A dropped person's seat, played by a bot, stays silent.
    """
    text = BOT_LINES[line]
    bots = tournament.seats.filter(kind=SeatKind.BOT, dropped=False).order_by("number")
    for bot in bots:
        payload = {"seat": bot.number, "name": bot.name, "text": text, "line": line}
        publish(tournament, "chat", payload)
