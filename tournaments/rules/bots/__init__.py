"""Bot seats: three levels of Deck Phase play and of answers to card questions.

``LEVELS`` is in order of strength. ``next_action`` is the one entry point for the services and the
ladder. The services use it for live bots and for seats played for a person. So both run the same
decisions.
"""

from __future__ import annotations

import random

from tournaments.rules.bots.heuristic import Action, bot_next_action, choose_option
from tournaments.rules.bots.levels import practised_action
from tournaments.rules.bots.practice import Outlook
from tournaments.rules.draft import DraftTurn, Table
from tournaments.rules.errors import OptionError, gettext_noop

LEVELS = ("rookie", "steady", "champion")
DEFAULT_LEVEL = "rookie"
"""Bots added without a level: today's cheap heuristic, so adding bots stays instant."""
TAKEOVER_LEVEL = "steady"
"""The level that plays a dropped seat for its owner."""
BUDGETS = {"rookie": 0, "steady": 120, "champion": 320}
"""Practice matches per decision."""

__all__ = [
    "BUDGETS",
    "DEFAULT_LEVEL",
    "LEVELS",
    "TAKEOVER_LEVEL",
    "Action",
    "Outlook",
    "bot_next_action",
    "check_level",
    "choose_option",
    "next_action",
]


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise OptionError(
            "bad_bot_level",
            gettext_noop("No bot level %(level)r."),
            levels=list(LEVELS),
            level=level,
        )
    return level


def next_action(
    turn: DraftTurn, table: Table, *, outlook: Outlook, noise: random.Random | None = None
) -> Action | None:
    """The next Deck Phase action of a seat, played at ``outlook.level``.

    ``""`` is the plain heuristic, for a person's seat at a missed deadline. Rookie blurs it with
    ``noise``. Steady and champion practise.
    """
    if outlook.level in ("", "rookie"):
        return bot_next_action(turn, table, round_number=outlook.round, noise=noise)
    return practised_action(turn, table, outlook)
