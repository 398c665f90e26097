"""A match's GraphQL enums, made (``apikit.enums.enum_of``) from values already held.

The engine and the match model hold those values. ``tournaments.enums`` re-exports them beside the
tournament's own.
"""

from __future__ import annotations

from apikit.enums import enum_of
from matches.engine.events import KINDS as EVENT_KINDS
from matches.engine.model import PARK_KINDS, SIDES
from matches.engine.questions import PROMPTS
from matches.models import MatchStatus

HIDDEN = "hidden"
"""The kind of an event a viewer may not see (it keeps its seq, with no payload)."""

# A match's view says ``playing`` for a recorded match whose events are still being released
# (``matches.selectors``): no one sees ``recorded``.
MATCH_VIEW_STATUSES = [s for s in MatchStatus.values if s != MatchStatus.RECORDED] + ["playing"]
MatchViewStatus = enum_of(
    "MatchStatus",
    MATCH_VIEW_STATUSES,
    "Scheduled, waiting for an answer, playing (events still being released), finished, failed.",
)
QuestionKind = enum_of("QuestionKind", list(PROMPTS), "What a card's question asks for.")
MatchSide = enum_of("MatchSide", SIDES, "A side of a match: A (its pairing's first seat) or B.")
MatchKind = enum_of("MatchKind", PARK_KINDS, "A match in a normal park or a Winter Park.")
MatchEventKind = enum_of(
    "MatchEventKind", [*EVENT_KINDS, HIDDEN], "A match event's kind, or hidden from you."
)
