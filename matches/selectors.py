"""Matches and their events as one viewer may see them.

A match's result shows only once the match is released. That is when its last event is out (see
``tournaments.services.matchplay``). So nobody reads the winner ahead of the paced live view.

Events are shown as the one observer (``matches.observer``) shows them to the ``Viewer``. Public
kinds go to everyone. Owner kinds go only to that side's seat. Those are questions, answers, and
what a card let its owner look at. Anything else goes to nobody, the shuffled deck orders above all.
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from apikit.graphql import Connection
from apikit.graphql_pages import Page, page_of
from apikit.shapes import Pager, row
from infra.errors import NotFoundError
from matches.archive import archived_payloads
from matches.enums import HIDDEN
from matches.models import Match, MatchEvent, MatchStatus
from matches.observer import VIEWS, Viewer, observe, visible_filter
from matches.release import is_released, released, result_public
from matches.shapes import MatchEventView, MatchSeat, MatchView, Question

EVENTS_TIMEOUT = 600  # seconds a finished match's frames stay cached


ASKED = "asked_at"
"""The stored question's key for the instant it is released (the release clock's)."""


def asked(match: Match) -> bool:
    """Whether the pending question is released (asked) yet."""
    at = (match.question or {}).get(ASKED)
    return is_released(None if at is None else datetime.fromisoformat(at))


def public_status(match: Match) -> str:
    """A match is still ``playing`` for everyone until its result is public.

    So is one whose question is not yet released."""
    if match.status in (MatchStatus.RECORDED, MatchStatus.FINISHED) and not result_public(match):
        return "playing"
    if match.status == MatchStatus.WAITING and not asked(match):
        return "playing"
    return str(match.status)


def with_released_counts(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Annotate how many released events each viewer class may see.

    The counts are ``released_public``, ``released_A`` and ``released_B``. The observer's SQL twin
    counts them."""
    out = released("events__visible_at")
    return matches.annotate(
        **{
            f"released_{view}": Count("events", filter=out & visible_filter(side, "events__"))
            for view, side in VIEWS
        }
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
    "result_visible_at",  # whether its result is public (``matches.release.result_public``)
    "seat_a__number",
    "seat_a__name",
    "seat_b__number",
    "seat_b__name",
    "winner__number",
)


ShownMatch = Match
"""A match as ``shown_matches`` reads it (only ``SHOWN``): the name transports annotate it with."""


def shown_matches() -> QuerySet[Match]:
    """Matches with what their views show, in one query (their seats joined)."""
    return Match.objects.select_related("seat_a", "seat_b", "winner").only(*SHOWN)


Counts = dict[str, int]
"""Released events per viewer class of a match (``VIEWS``): ``public``, ``A``, ``B``, each the
whole count that viewer sees (as ``matches.services.event_counts`` stores a released match's)."""


BEING_RELEASED = (MatchStatus.RECORDED, MatchStatus.WAITING, MatchStatus.FAILED)
"""The statuses of a match whose stored events may be out only in part: recorded, or stopped
(at a question, or failed) after storing the events before its question."""


def _recorded_counts(ids: list[int]) -> dict[int, Counts]:
    """One grouped query for every match still releasing events (or stopped)."""
    if not ids:
        return {}
    counted = with_released_counts(Match.objects.filter(pk__in=ids))
    names = [f"released_{view}" for view, _side in VIEWS]
    rows = counted.values_list("pk", *names)
    return {got[0]: dict(zip([v for v, _s in VIEWS], got[1:], strict=True)) for got in rows}


def _released(match: Match, side: str | None, counts: Counts | None = None) -> int:
    """Released events the viewer may see.

    A released match's were counted when it was recorded. A match still releasing events has them
    counted now."""
    if match.status == MatchStatus.FINISHED:
        return int(match.event_counts.get(side or "public", 0))
    if match.status not in BEING_RELEASED:
        return 0  # a scheduled match has no events yet
    if counts is None:
        counts = _recorded_counts([match.pk]).get(match.pk, {})
    return int(counts.get(side or "public", 0))


def match_view(
    match: Match, viewer: Viewer, counts: Counts | None = None, *, listed: bool = False
) -> MatchView:
    """The match as ``viewer`` may see it.

    ``counts``: its released events, if already counted for a list. ``listed``: a list's match,
    whose events read the match again if selected."""
    side = viewer.side_in(match)
    visible = result_public(match)
    released = _released(match, side, counts)
    return MatchView(
        id=match.pk,
        tournament=match.tournament_id,
        round=match.round,
        park=match.park,
        kind=match.kind,
        seats=[
            MatchSeat(number=match.seat_a.number, name=match.seat_a.name, side="A"),
            MatchSeat(number=match.seat_b.number, name=match.seat_b.name, side="B"),
        ],
        status=public_status(match),
        winner=match.winner.number if visible and match.winner else None,
        reason=match.reason if visible else None,
        fans_gained=match.fans_gained if visible else None,
        events_released=released,
        question=_question(match, side),
        events=MatchEvents(match.pk, viewer, None if listed else match),
    )


def _question(match: Match, side: str | None) -> Question | None:
    question = match.question
    if match.status != MatchStatus.WAITING or question is None or question.get("side") != side:
        return None
    if not asked(match):
        return None
    return row(
        Question,
        question,
        option_seats=question.get("option_seats") or [],  # a question stored before them
        deadline=match.question_deadline,
    )


class MatchEvents(Pager[MatchEventView]):
    """A match's events as GraphQL pages them.

    They are read only when selected, forwards only, those after ``after``. A finished match's page
    is named by its content (reused whole)."""

    __slots__ = ("match", "match_id", "viewer")

    def __init__(self, match_id: int, viewer: Viewer, match: Match | None = None) -> None:
        self.match_id, self.viewer, self.match = match_id, viewer, match

    def __getstate__(self) -> tuple[int, Viewer]:
        return self.match_id, self.viewer  # a cached list keeps no model row

    def __setstate__(self, state: tuple[int, Viewer]) -> None:
        self.match_id, self.viewer = state
        self.match = None

    def page(self, page: Page) -> Connection[MatchEventView]:
        # Forwards, only the events after ``after`` are read; backwards, all of them.
        skip = page.start() if page.last is None and page.before is None else 0
        match = self.match if self.match is not None else match_by_id(self.match_id)
        frames = match_events(match, self.viewer, after=skip)
        if skip and not frames:  # past the end: count the events there are
            skip, frames = 0, match_events(match, self.viewer, after=0)
        return page_of(frames, page, offset=skip, content=fixed_events(match, self.viewer))


def match_by_id(match_id: int) -> Match:
    """The match with its seats, or ``not_found``."""
    try:
        return shown_matches().get(pk=match_id)
    except Match.DoesNotExist as missing:
        raise NotFoundError("not_found", _("No such match.")) from missing


def match_list(*, tournament_id: int, viewer: Viewer) -> list[MatchView]:
    listed = list(shown_matches().filter(tournament_id=tournament_id))
    counts = _recorded_counts([m.pk for m in listed if m.status in BEING_RELEASED])
    return [match_view(match, viewer, counts.get(match.pk, {}), listed=True) for match in listed]


def match_events(match: Match, viewer: Viewer, *, after: int = 0) -> list[MatchEventView]:
    """The released events after number ``after``, gapless, as the viewer may see them.

    Frames are numbered from 1 (``seq`` = the engine's own ``payload.seq`` + 1). So ``after=0``
    starts at the first event. An event the viewer may not see keeps its number as
    ``{"seq": N, "kind": "hidden", "payload": null}``. A finished match's events never change. So
    its frames are cached per side that sees them (A, B, or a spectator's ``None``).
    """
    side = viewer.side_in(match)
    fixed = fixed_events(match, viewer)
    if fixed is None:
        return _frames(match, side, after)
    key = f"mv{fixed}"  # the frames as shapes (``m…`` held them as dictionaries)
    frames: list[MatchEventView] | None = cache.get(key)
    if frames is None:
        frames = _frames(match, side, 0)
        cache.set(key, frames, EVENTS_TIMEOUT)
    return frames[after:]  # frame n holds seq n: every event of a finished match is out


def fixed_events(match: Match, viewer: Viewer) -> str | None:
    """What names ``match``'s events as ``viewer`` sees them, once final.

    They are final in a finished match: every event is out. ``None`` while more may come."""
    if match.status != MatchStatus.FINISHED or match.finished_at is None:
        return None
    stamp = match.finished_at.timestamp()
    return f"events:{match.pk}:{match.seed}:{stamp}:{viewer.side_in(match)}"


def _frames(match: Match, side: str | None, after: int) -> list[MatchEventView]:
    rows = MatchEvent.objects.filter(released(), match=match, seq__gte=after)
    payloads = list(rows.order_by("seq").values_list("payload", flat=True))
    if not payloads and match.status == MatchStatus.FINISHED:  # archived with its tournament
        payloads = [p for p in archived_payloads(match.pk) or [] if p["seq"] >= after]
    frames = []
    for payload in payloads:
        shown = observe(payload, side)
        number = int(payload["seq"]) + 1
        if shown is None:
            frames.append(MatchEventView(seq=number, kind=HIDDEN, payload=None))
        else:
            frames.append(MatchEventView(seq=number, kind=shown["kind"], payload=shown))
    return frames
