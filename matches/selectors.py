"""Matches and their events as one viewer may see them.

A match's result is shown only once the match is released (its last event out, see
``tournaments.services.matchplay``), so nobody reads the winner ahead of the paced live view.
Events are filtered by an allowlist of kinds:
public kinds go to everyone, owner kinds (questions, answers, what a card let its owner look at)
only to that side's seat, and anything else — the shuffled deck orders above all — to nobody.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import NotFoundError
from matches.archive import archived_payloads
from matches.engine import events
from matches.models import Match, MatchEvent, MatchStatus

# Who may see each kind is the engine's list of event kinds (``matches.engine.events.SHOWN_TO``).
PUBLIC_KINDS = events.PUBLIC_KINDS
OWNER_KINDS = events.OWNER_KINDS
EVENTS_TIMEOUT = 600  # seconds a finished match's frames stay cached
UNSEEN_FIELDS = events.UNSEEN_FIELDS  # a card taken from a pile unseen is unknown until revealed


def viewer_side(match: Match, viewer: int | None) -> str | None:
    """The side the viewing seat (its id; ``None``: a spectator) plays in this match, if any."""
    if viewer is None:
        return None
    if viewer == match.seat_a_id:
        return "A"
    if viewer == match.seat_b_id:
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


HIDDEN = "hidden"


ASKED = "asked_at"
"""The stored question's key for the instant it is released (the release clock's)."""


def asked(match: Match) -> bool:
    """Whether the match's pending question has been released (asked) yet."""
    at = (match.question or {}).get(ASKED)
    return at is None or datetime.fromisoformat(at) <= timezone.now()


def public_status(match: Match) -> str:
    """A recorded match is still ``playing`` for everyone until it is released, and so is a
    match whose question is not yet released."""
    if match.status == MatchStatus.RECORDED:
        return "playing"
    if match.status == MatchStatus.WAITING and not asked(match):
        return "playing"
    return str(match.status)


def with_released_counts(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Annotate how many released events each viewer class may see (``redact``'s allowlists:
    the public kinds for everyone, a side's owner kinds for that side only)."""
    released = Q(events__visible_at__lte=timezone.now())
    owner = released & Q(events__kind__in=OWNER_KINDS)
    return matches.annotate(
        released_public=Count("events", filter=released & Q(events__kind__in=PUBLIC_KINDS)),
        released_a=Count("events", filter=owner & Q(events__payload__side="A")),
        released_b=Count("events", filter=owner & Q(events__payload__side="B")),
    )


# What a match view reads: never the engine input (deck orders), the kept result or the answers,
# and of its seats only their numbers and names (not their decks).
SHOWN = (
    "tournament_id",
    "round",
    "park",
    "kind",
    "status",
    "reason",
    "fans_gained",
    "event_counts",
    "question",
    "question_deadline",
    "seed",  # with ``finished_at``: a finished match's events cache key (ids restart with a
    "finished_at",  # new database, a cache may outlive it)
    "seat_a__number",
    "seat_a__name",
    "seat_b__number",
    "seat_b__name",
    "winner__number",
)


def shown_matches() -> QuerySet[Match]:
    """Matches with what their views show, in one query (their seats joined)."""
    return Match.objects.select_related("seat_a", "seat_b", "winner").only(*SHOWN)


Counts = dict[str, int]
"""Released events per viewer class of a match being released: ``public``, ``A``, ``B``."""


def _recorded_counts(ids: list[int]) -> dict[int, Counts]:
    """One grouped query for every match whose events are still being released."""
    if not ids:
        return {}
    counted = with_released_counts(Match.objects.filter(pk__in=ids))
    rows = counted.values_list("pk", "released_public", "released_a", "released_b")  # type: ignore[misc]
    return {pk: {"public": public, "A": a, "B": b} for pk, public, a, b in rows}


def _released(match: Match, side: str | None, counts: Counts | None = None) -> int:
    """Released events the viewer may see: all of a released match's (counted when it was
    recorded), or counted now for a match whose events are still being released."""
    if match.status == MatchStatus.FINISHED:
        return int(match.event_counts.get(side or "public", 0))
    if match.status != MatchStatus.RECORDED:
        return 0  # a match's events are stored when it is recorded
    if counts is None:
        counts = _recorded_counts([match.pk]).get(match.pk, {})
    return int(counts.get("public", 0)) + int(counts.get(side or "", 0))


def match_view(match: Match, viewer: int | None, counts: Counts | None = None) -> dict[str, Any]:
    """The match as ``viewer`` may see it (``counts``: its released events, if already
    counted for a list)."""
    side = viewer_side(match, viewer)
    visible = match.status == MatchStatus.FINISHED
    released = _released(match, side, counts)
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
        "status": public_status(match),
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
    if not asked(match):
        return None
    shown = {key: value for key, value in question.items() if key != ASKED}
    return {**shown, "deadline": match.question_deadline}


def match_by_id(match_id: int) -> Match:
    """The match with its seats, or ``not_found``."""
    try:
        return shown_matches().get(pk=match_id)
    except Match.DoesNotExist as missing:
        raise NotFoundError("not_found", _("No such match.")) from missing


def match_list(*, tournament_id: int, viewer: int | None) -> list[dict[str, Any]]:
    listed = list(shown_matches().filter(tournament_id=tournament_id))
    counts = _recorded_counts([m.pk for m in listed if m.status == MatchStatus.RECORDED])
    return [match_view(match, viewer, counts.get(match.pk, {})) for match in listed]


def match_events(match: Match, viewer: int | None, *, after: int = 0) -> list[dict[str, Any]]:
    """The released events after number ``after``, gapless, as the viewer may see them.

    Frames are numbered from 1 (``seq`` = the engine's own ``payload.seq`` + 1), so ``after=0``
    starts at the first event; an event the viewer may not see keeps its number as
    ``{"seq": N, "kind": "hidden", "payload": null}``. A finished match's events never change,
    so its frames are cached per side that sees them (A, B, or a spectator's ``None``).
    """
    side = viewer_side(match, viewer)
    if match.status != MatchStatus.FINISHED or match.finished_at is None:
        return _frames(match, side, after)
    key = f"mevents:{match.pk}:{match.seed}:{match.finished_at.timestamp()}:{side}"
    frames: list[dict[str, Any]] | None = cache.get(key)
    if frames is None:
        frames = _frames(match, side, 0)
        cache.set(key, frames, EVENTS_TIMEOUT)
    return frames[after:]  # frame n holds seq n: every event of a finished match is out


def _frames(match: Match, side: str | None, after: int) -> list[dict[str, Any]]:
    rows = MatchEvent.objects.filter(match=match, seq__gte=after, visible_at__lte=timezone.now())
    payloads = list(rows.order_by("seq").values_list("payload", flat=True))
    if not payloads and match.status == MatchStatus.FINISHED:  # archived with its tournament
        payloads = [p for p in archived_payloads(match.pk) or [] if p["seq"] >= after]
    frames = []
    for payload in payloads:
        shown = redact(payload, side)
        number = int(payload["seq"]) + 1
        if shown is None:
            frames.append({"seq": number, "kind": HIDDEN, "payload": None})
        else:
            frames.append({"seq": number, "kind": shown["kind"], "payload": shown})
    return frames
