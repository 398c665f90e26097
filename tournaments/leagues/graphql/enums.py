"""The leagues' GraphQL enums: declared with the shapes (``tournaments.leagues.enums``)."""

from __future__ import annotations

from tournaments.leagues.enums import CorrectionKind, MemberKind, NoShowPolicy, WebhookEvent

__all__ = ["CorrectionKind", "MemberKind", "NoShowPolicy", "WebhookEvent"]
