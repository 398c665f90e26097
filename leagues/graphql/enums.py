"""The leagues' GraphQL enums, declared with the shapes (``leagues.enums``)."""

from __future__ import annotations

from leagues.enums import CorrectionKind, MemberKind, NoShowPolicy, WebhookEvent

__all__ = ["CorrectionKind", "MemberKind", "NoShowPolicy", "WebhookEvent"]
