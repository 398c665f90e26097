"""The tournament's GraphQL enums, made with ``apikit.enums.enum_of``.

They come from values the models' choices, the rules and the inputs already hold. So each set of
values has one home. They live beside the models, not in the ``graphql`` package. That package never
imports a model.
"""

from __future__ import annotations

from apikit.enums import enum_of
from cards.enums import Box
from matches.enums import HIDDEN
from matches.enums import MATCH_VIEW_STATUSES as MATCH_VIEW_STATUSES
from matches.enums import MatchEventKind as MatchEventKind
from matches.enums import MatchKind as MatchKind
from matches.enums import MatchSide as MatchSide
from matches.enums import MatchViewStatus as MatchViewStatus
from matches.enums import QuestionKind as QuestionKind
from tournaments.inputs import LIST_STATUSES
from tournaments.models import LOG_KINDS, BalanceStatus, Status
from tournaments.models import SeatKind as SeatKinds
from tournaments.rules.bots import LEVELS as BOT_LEVELS
from tournaments.rules.bots.advice import ADVICE_KINDS
from tournaments.rules.draft import TURN_ACTIONS
from tournaments.rules.lobby import LOBBY_ACTIONS, RECLAIM_ACTIONS
from tournaments.rules.options import BASIC_SETS, BOXES
from tournaments.rules.when_picked import PENDING_KINDS
from tournaments.rules.winter import MODES

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
AdviceKind = enum_of(
    "AdviceKind", ADVICE_KINDS, "What advice rates: the round's options, your display, none."
)
SimulationStatus = enum_of(
    "SimulationStatus", BalanceStatus.values, "A card's practice matches: queued to done."
)
LOG_VIEW_KINDS = [*LOG_KINDS, HIDDEN]
TournamentEventKind = enum_of(
    "TournamentEventKind",
    LOG_VIEW_KINDS,
    "A tournament event's kind (docs/protocol.md), or hidden from you.",
)
