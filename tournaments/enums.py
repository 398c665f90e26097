"""The tournament's GraphQL enums, made (``config.enums.enum_of``) from the values the models'
choices, the rules and the inputs already hold: one home for each set of values. They live
beside the models rather than in the ``graphql`` package, which never imports a model."""

from __future__ import annotations

from cards.enums import Box
from config.enums import enum_of
from matches.engine.events import KINDS as EVENT_KINDS
from matches.engine.questions import PROMPTS
from matches.models import MatchStatus
from matches.selectors import HIDDEN
from tournaments.api.inputs import LIST_STATUSES
from tournaments.models import BalanceStatus, Status
from tournaments.models import SeatKind as SeatKinds
from tournaments.rules.bots import LEVELS as BOT_LEVELS
from tournaments.rules.bots.advice import ADVICE_KINDS
from tournaments.rules.draft import TURN_ACTIONS
from tournaments.rules.lobby import LOBBY_ACTIONS, RECLAIM_ACTIONS
from tournaments.rules.options import BASIC_SETS, BOXES
from tournaments.rules.when_picked import PENDING_KINDS
from tournaments.rules.winter import MODES, PARK_KINDS

BasicSet = enum_of("BasicSet", sorted(BASIC_SETS), "A basic set: City (base box) or Rainbow.")
# A tournament's box presets are the catalogue's boxes: one enum (``cards.enums``) for both.
assert sorted(BOXES) == [m.value for m in Box], "a box preset for every box of the catalogue"
WinterMode = enum_of("WinterMode", MODES, "Winter parks: none, the normal rule, or all.")
BotLevel = enum_of("BotLevel", BOT_LEVELS, "A bot's strength.")
ListStatus = enum_of(
    "ListStatus", LIST_STATUSES, "A tournament list's filter: running is a Deck or Match Phase."
)
TOURNAMENT_STATUSES = list(Status.values)
TournamentStatus = enum_of(
    "TournamentStatus",
    TOURNAMENT_STATUSES,
    "lobby, the Deck Phase, the Match Phase, over or cancelled.",
)
SeatKind = enum_of("SeatKind", SeatKinds.values, "A person, a bot or the Robot.")
# A match's view says ``playing`` for a recorded match whose events are still being released
# (``matches.selectors``): no one sees ``recorded``.
MATCH_VIEW_STATUSES = [s for s in MatchStatus.values if s != MatchStatus.RECORDED] + ["playing"]
MatchViewStatus = enum_of(
    "MatchStatus",
    MATCH_VIEW_STATUSES,
    "Scheduled, waiting for an answer, playing (events still being released), finished, failed.",
)
SEAT_ACTIONS = [*LOBBY_ACTIONS, *RECLAIM_ACTIONS, *TURN_ACTIONS]
SeatAction = enum_of(
    "SeatAction",
    SEAT_ACTIONS,
    "What a seat can do now: the host's lobby actions, reclaiming a dropped seat, or a Deck "
    "Phase action.",
)
PendingKind = enum_of(
    "PendingKind", PENDING_KINDS, "A picked card's effect that waits: remove, must remove, keep."
)
QuestionKind = enum_of("QuestionKind", list(PROMPTS), "What a card's question asks for.")
AdviceKind = enum_of(
    "AdviceKind", ADVICE_KINDS, "What advice rates: the round's options, your display, none."
)
MatchKind = enum_of("MatchKind", PARK_KINDS, "A match in a normal park or a Winter Park.")
MatchEventKind = enum_of(
    "MatchEventKind", [*EVENT_KINDS, HIDDEN], "A match event's kind, or hidden from you."
)
SimulationStatus = enum_of(
    "SimulationStatus", BalanceStatus.values, "A card's practice matches: queued to done."
)
