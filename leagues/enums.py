"""The leagues' enums (``apikit.enums.enum_of``).

They are made from the values their models, inputs and webhooks already hold. The shapes
(``leagues.shapes``) and GraphQL's inputs type their fields with them. OpenAPI lists their values.
"""

from __future__ import annotations

from apikit.enums import enum_of
from leagues.inputs import MEMBER_KINDS, NO_SHOW_POLICIES
from leagues.models import ClosureAction as ClosureActions
from leagues.models import CorrectionKind as CorrectionKinds
from leagues.models import DeliveryStatus as DeliveryStatuses
from leagues.models import MemberKind as MemberKinds
from leagues.models import ScheduleOutcome as ScheduleOutcomes
from leagues.rules.scoring import TIEBREAK
from leagues.services.webhooks import EVENT_KINDS

CorrectionKind = enum_of(
    "CorrectionKind",
    CorrectionKinds.values,
    "disqualify: a member from a tournament or a season; manual_result: places; forfeit: a "
    "member gives up one match of a tournament; no_show: a member did not check in by a "
    "scheduled start and a bot took its seat (recorded by the scheduler, never asked for).",
)
MemberKind = enum_of("MemberKind", MEMBER_KINDS, "Which members a ranking counts.")
WebhookEvent = enum_of("WebhookEvent", EVENT_KINDS, "An event kind a webhook is sent.")
LeagueMemberKind = enum_of("LeagueMemberKind", MemberKinds.values, "A person or a bot.")
DeliveryKind = enum_of(
    "DeliveryKind", (*EVENT_KINDS, "ping"), "An event kind a delivery carries (ping: a test)."
)
DeliveryStatus = enum_of(
    "DeliveryStatus", DeliveryStatuses.values, "pending, delivered or failed (out of attempts)."
)
ScheduleOutcome = enum_of(
    "ScheduleOutcome",
    [value for value in ScheduleOutcomes.values if value],
    "started by itself, cancelled (check-in incomplete), or skipped (started or cancelled by "
    "hand before its time).",
)
Criterion = enum_of("Criterion", TIEBREAK, "A tie-break criterion of the standings.")
DecidedBy = enum_of(
    "DecidedBy", (*TIEBREAK, "tied"), "The criterion that put a row below the one above, or tied."
)
NoShowPolicy = enum_of(
    "NoShowPolicy",
    NO_SHOW_POLICIES,
    "What a player who did not check in by a scheduled start causes: cancel the tournament, or "
    "bot: a bot takes the seat and it starts.",
)
ClosureAction = enum_of(
    "ClosureAction", ClosureActions.values, "close: a season's results closed; reopen: reopened."
)
