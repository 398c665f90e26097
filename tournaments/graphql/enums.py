"""The tournament's GraphQL enums, made from the values the rules and inputs already hold
(``config.enums.enum_of``): one home for each set of values."""

from __future__ import annotations

from config.enums import enum_of
from tournaments.api.inputs import LIST_STATUSES
from tournaments.rules.bots import LEVELS as BOT_LEVELS
from tournaments.rules.options import BASIC_SETS, BOXES
from tournaments.rules.winter import MODES

BasicSet = enum_of("BasicSet", sorted(BASIC_SETS), "A basic set: City (base box) or Rainbow.")
Box = enum_of("Box", sorted(BOXES), "A whole box: its basic set, draft rules and sets.")
WinterMode = enum_of("WinterMode", MODES, "Winter parks: none, the normal rule, or all.")
BotLevel = enum_of("BotLevel", BOT_LEVELS, "A bot's strength.")
ListStatus = enum_of(
    "ListStatus", LIST_STATUSES, "A tournament list's filter: running is a Deck or Match Phase."
)
