"""The tournament's GraphQL enums, made (``config.enums.enum_of``) from the values the models'
choices, the rules and the inputs already hold: one home for each set of values. They live
beside the models rather than in the ``graphql`` package, which never imports a model."""

from __future__ import annotations

from config.enums import enum_of
from matches.models import MatchStatus
from tournaments.api.inputs import LIST_STATUSES
from tournaments.models import SeatKind as SeatKinds
from tournaments.models import Status
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
TournamentStatus = enum_of(
    "TournamentStatus", Status.values, "lobby, the Deck Phase, the Match Phase, over or cancelled."
)
SeatKind = enum_of("SeatKind", SeatKinds.values, "A person, a bot or the Robot.")
# A match's view says ``playing`` for a recorded match whose events are still being released
# (``matches.selectors``): no one sees ``recorded``.
MatchViewStatus = enum_of(
    "MatchStatus",
    [s for s in MatchStatus.values if s != MatchStatus.RECORDED] + ["playing"],
    "Scheduled, waiting for an answer, playing (events still being released), finished, failed.",
)
