"""Matches and their events as one viewer may see them.

A match's result is shown only once its last event is released (``result_visible_at``), so nobody
reads the winner ahead of the paced live view. Events are filtered by an allowlist of kinds:
public kinds go to everyone, owner kinds (questions, answers, what a card let its owner look at)
only to that side's seat, and anything else — the shuffled deck orders above all — to nobody.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from matches.models import Match, MatchEvent, MatchStatus
from tournaments.models import Seat

PUBLIC_KINDS = frozenset(
    {
        "start",
        "flag_toss",
        "reveal",
        "power",
        "attack",
        "flag",
        "effect",
        "benched",
        "frozen",
        "exhausted",
        "moved",
        "removed",
        "added",
        "fans",
        "end",
    }
)
OWNER_KINDS = frozenset({"question", "answer", "arranged"})
UNSEEN_FIELDS = {"added": ("key",)}  # a card taken from a pile unseen is unknown until revealed


def viewer_side(match: Match, viewer: Seat | None) -> str | None:
    if viewer is None:
        return None
    if viewer.pk == match.seat_a_id:
        return "A"
    if viewer.pk == match.seat_b_id:
        return "B"
    return None


def redact(payload: dict[str, Any], side: str | None) -> dict[str, Any] | None:
    """The event as ``side`` may see it, or ``None`` when it is hidden from that viewer."""
    kind = payload.get("kind")
    if kind in PUBLIC_KINDS:
        hidden = UNSEEN_FIELDS.get(str(kind), ())
        return {k: v for k, v in payload.items() if k not in hidden} if hidden else payload
    if kind in OWNER_KINDS and side is not None and payload.get("side") == side:
        return payload
    return None


def result_visible(match: Match) -> bool:
    return match.status == MatchStatus.FINISHED and (
        match.result_visible_at is None or match.result_visible_at <= timezone.now()
    )


def match_view(match: Match, viewer: Seat | None) -> dict[str, Any]:
    side = viewer_side(match, viewer)
    visible = result_visible(match)
    status = match.status if visible or match.status != MatchStatus.FINISHED else "playing"
    released = match.events.filter(visible_at__lte=timezone.now()).count()
    return {
        "id": match.pk,
        "tournament": match.tournament_id,
        "round": match.round,
        "park": match.park,
        "kind": match.kind,
        "seats": [
            {"number": seat.number, "name": seat.name, "side": s}
            for s, seat in (("A", match.seat_a), ("B", match.seat_b))
        ],
        "status": status,
        "winner": match.winner.number if visible and match.winner else None,
        "reason": match.reason if visible else None,
        "fans_gained": match.fans_gained if visible else None,
        "events_released": released,
        "question": _question(match, side),
    }


def _question(match: Match, side: str | None) -> dict[str, Any] | None:
    question = match.question
    if match.status != MatchStatus.WAITING or question is None or question.get("side") != side:
        return None
    return {**question, "deadline": match.question_deadline}


def match_list(*, tournament_id: int, viewer: Seat | None) -> list[dict[str, Any]]:
    matches = Match.objects.filter(tournament_id=tournament_id).select_related(
        "seat_a", "seat_b", "winner"
    )
    return [match_view(match, viewer) for match in matches]


def match_events(match: Match, viewer: Seat | None, *, after: int = 0) -> list[dict[str, Any]]:
    """The released events after ``after`` that the viewer may see."""
    side = viewer_side(match, viewer)
    rows = MatchEvent.objects.filter(match=match, seq__gt=after, visible_at__lte=timezone.now())
    shown = (redact(row.payload, side) for row in rows.order_by("seq"))
    return [
        {"seq": event["seq"], "kind": event["kind"], "payload": event} for event in shown if event
    ]
