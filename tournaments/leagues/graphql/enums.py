"""The leagues' GraphQL enums (``config.enums.enum_of``), made from the values their inputs
and webhooks already hold."""

from __future__ import annotations

from config.enums import enum_of
from tournaments.leagues.api.inputs import CORRECTION_KINDS, MEMBER_KINDS, NO_SHOW_POLICIES
from tournaments.leagues.webhooks import EVENT_KINDS

CorrectionKind = enum_of(
    "CorrectionKind",
    CORRECTION_KINDS,
    "disqualify: a member from a tournament or a season; manual_result: places; forfeit: a "
    "member gives up one match of a tournament.",
)
MemberKind = enum_of("MemberKind", MEMBER_KINDS, "Which members a ranking counts.")
WebhookEvent = enum_of("WebhookEvent", EVENT_KINDS, "An event kind a webhook is sent.")
NoShowPolicy = enum_of(
    "NoShowPolicy",
    NO_SHOW_POLICIES,
    "What a player who did not check in by a scheduled start causes: cancel the tournament, or "
    "bot: a bot takes the seat and it starts.",
)
