"""What the server still owes each running tournament, derived from its rows alone.

A task in the broker is only a nudge. It may be lost: Redis restarted, a worker killed. The rows
still say what must happen next, and the reconciler (``tournaments.services.reconcile``) drives
it. There is one ``Owed`` per piece of work:

- ``bots:<tournament>:<round>``: bot seats (or dropped seats' stand-ins) whose Deck Phase turn is
  not finished (``bot_deck_phases``), owed since the tournament last changed;
- ``match:<id>``: a match ``scheduled`` but not played (``play_match``), since it was created;
- ``deadline:<tournament>:<round>``: a Deck Phase past its deadline, since the deadline;
- ``answer:<match>:<question>``: a question past its answer deadline, since the deadline;
- ``release:<match>``: a recorded match whose events are all out, since its release was due;
- ``round:<tournament>:<round>``: a Match Phase whose matches are all released but whose round
  did not close (the process died between the last release and the close, which commit
  apart), since the tournament last changed.

The clock (``tournaments.services.clock``) does the last four in place. The first two are queued
as tasks. Other apps add their own work through ``settings.RECONCILE_SOURCES``. The leagues'
webhook deliveries come that way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib import import_module
from typing import Any, TypeVar

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from matches.models import Match, MatchStatus
from matches.release import released
from tournaments.models import DraftTurn, SeatKind, Status, Tournament

Rows = TypeVar("Rows", bound=QuerySet)


@dataclass(frozen=True)
class Owed:
    """One piece of owed work.

    ``key`` names it and its nudge. ``since`` is when it fell due. ``task`` and ``args`` queue it.
    ``task`` is ``None`` for work the clock does in place.
    """

    key: str
    tournament_id: int | None
    since: datetime
    task: str | None = None
    args: tuple[Any, ...] = ()


def owed_work(*, now: datetime, tournament_id: int | None = None) -> list[Owed]:
    """Everything owed to running tournaments now, oldest first. Given an id, to that one only."""
    found = [
        *_bot_phases(tournament_id),
        *_scheduled_matches(tournament_id),
        *_late_phases(now, tournament_id),
        *_late_answers(now, tournament_id),
        *_due_releases_owed(now, tournament_id),
        *_unclosed_rounds(tournament_id),
    ]
    return sorted(found, key=lambda owed: owed.since)


def other_owed_work(*, now: datetime) -> list[Owed]:
    """The work other apps' sources (``settings.RECONCILE_SOURCES``) say is owed."""
    found: list[Owed] = []
    for name in getattr(settings, "RECONCILE_SOURCES", ()):
        module, _, function = name.rpartition(".")
        source: Callable[..., Iterable[Owed]] = getattr(import_module(module), function)
        found.extend(source(now=now))
    return found


def stuck_tournaments(*, now: datetime, seconds: float) -> dict[int, datetime]:
    """Running tournaments with work owed for more than ``seconds``: id -> since when."""
    bound = now - timedelta(seconds=seconds)
    stuck: dict[int, datetime] = {}
    for owed in owed_work(now=now):
        if owed.tournament_id is not None and owed.since <= bound:
            stuck.setdefault(owed.tournament_id, owed.since)
    return stuck


def _of(query: Rows, field: str, tournament_id: int | None) -> Rows:
    return query if tournament_id is None else query.filter(**{field: tournament_id})


def _bot_phases(tournament_id: int | None) -> list[Owed]:
    turns = DraftTurn.objects.filter(
        finished=False,
        seat__tournament__status=Status.DECK,
        round=F("seat__tournament__round"),
    ).filter(Q(seat__kind=SeatKind.BOT) | Q(seat__dropped=True))
    rows = _of(turns, "seat__tournament_id", tournament_id).order_by("seat__number")
    seats: dict[tuple[int, int, datetime], list[int]] = {}
    for tid, round_number, changed, seat_id in rows.values_list(
        "seat__tournament_id", "round", "seat__tournament__updated_at", "seat_id"
    ):
        seats.setdefault((tid, round_number, changed), []).append(seat_id)
    return [
        Owed(
            f"bots:{tid}:{round_number}",
            tid,
            changed,
            "tournaments.tasks.bot_deck_phases",
            (tid, ids),
        )
        for (tid, round_number, changed), ids in seats.items()
    ]


def _scheduled_matches(tournament_id: int | None) -> list[Owed]:
    matches = Match.objects.filter(status=MatchStatus.SCHEDULED).exclude(
        tournament__status=Status.CANCELLED
    )
    rows = _of(matches, "tournament_id", tournament_id)
    return [
        Owed(f"match:{pk}", tid, created, "tournaments.tasks.play_match", (pk, tid))
        for pk, tid, created in rows.values_list("pk", "tournament_id", "created_at")
    ]


def _late_phases(now: datetime, tournament_id: int | None) -> list[Owed]:
    late = Tournament.objects.filter(status=Status.DECK, phase_deadline__lte=now)
    rows = _of(late, "pk", tournament_id).values_list("pk", "round", "phase_deadline")
    # (a deadline ``__lte`` filtered is never null; the guard tells the type so)
    return [
        Owed(f"deadline:{tid}:{number}", tid, deadline)
        for tid, number, deadline in rows
        if deadline is not None
    ]


def _late_answers(now: datetime, tournament_id: int | None) -> list[Owed]:
    late = Match.objects.filter(status=MatchStatus.WAITING, question_deadline__lte=now).exclude(
        tournament__status=Status.CANCELLED
    )
    rows = _of(late, "tournament_id", tournament_id)
    return [
        Owed(f"answer:{pk}:{(question or {}).get('seq')}", tid, deadline)
        for pk, tid, deadline, question in rows.values_list(
            "pk", "tournament_id", "question_deadline", "question"
        )
        if deadline is not None  # never, filtered ``__lte``
    ]


def pace() -> timedelta:
    """The delay between two released match events (``MATCH_EVENT_PACE_SECONDS``)."""
    return timedelta(seconds=float(getattr(settings, "MATCH_EVENT_PACE_SECONDS", 0.0)))


def due_releases(now: datetime) -> QuerySet[Match]:
    """Recorded matches whose last event has been out for one pace step."""
    done = released("result_visible_at", now=now - pace())
    return Match.objects.filter(done, status=MatchStatus.RECORDED).exclude(
        tournament__status=Status.CANCELLED
    )


def _due_releases_owed(now: datetime, tournament_id: int | None) -> list[Owed]:
    rows = _of(due_releases(now), "tournament_id", tournament_id)
    step = pace()
    return [
        Owed(f"release:{pk}", tid, visible + step)
        for pk, tid, visible in rows.values_list("pk", "tournament_id", "result_visible_at")
        if visible is not None  # never, filtered as released
    ]


def unclosed_rounds() -> QuerySet[Tournament]:
    """Tournaments in a Match Phase whose round's matches are all released.

    Their close is owed (``tournaments.services.rounds.round_close``).
    """
    of_round = Match.objects.filter(tournament=OuterRef("pk"), round=OuterRef("round"))
    return Tournament.objects.filter(status=Status.MATCH).filter(
        Exists(of_round), ~Exists(of_round.exclude(status=MatchStatus.FINISHED))
    )


def _unclosed_rounds(tournament_id: int | None) -> list[Owed]:
    rows = _of(unclosed_rounds(), "pk", tournament_id)
    return [
        Owed(f"round:{tid}:{number}", tid, changed)
        for tid, number, changed in rows.values_list("pk", "round", "updated_at")
    ]
