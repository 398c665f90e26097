"""Live streams over the GraphQL socket (graphql-transport-ws).

They are fed as ``/ws/tournaments/{id}/`` is fed. The tournament's group nudge (``services.events``)
wakes the subscription. It then reads the log itself (``selectors.events.events_after``,
``matches.selectors.match_events``) from the last seq it sent. Nothing is published twice. A lost
nudge costs latency, never an event.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import closing
from datetime import datetime, timedelta

import strawberry
from channels.db import database_sync_to_async
from django.utils import timezone
from django.utils.translation import gettext as _

from infra import metrics
from infra.errors import ApplicationError
from matches.observer import Viewer
from matches.selectors import match_by_id, match_events, public_status
from matches.shapes import MatchEventView as MatchEventShape
from tournaments.graphql.arguments import (
    After,
    MatchId,
    TournamentId,
    match_number,
    tournament_number,
)
from tournaments.graphql.queries import caller_seat
from tournaments.graphql.types import MatchEventView, TournamentEventView
from tournaments.inputs import MAX_NUMBER
from tournaments.selectors.events import events_after, released_seq
from tournaments.selectors.viewers import viewer_in
from tournaments.services.events import group_name

NUDGE = "log.grew"
# A match whose events are still being released is read again this often between nudges.
MATCH_POLL_SECONDS = 1.0


def _tournament_viewer(info: strawberry.Info, tournament_id: int, after: int) -> Viewer:
    """The caller viewing the tournament; refuses what the stream refuses."""
    logged = released_seq(tournament_id)
    viewer = viewer_in(caller_seat(info), tournament_id)
    _check_after(after, logged)
    return viewer


def _check_after(after: int, logged: int | None) -> None:
    if not 0 <= after <= MAX_NUMBER:
        message = _("`after` must be a whole number from 0 to %(max)s.") % {"max": MAX_NUMBER}
        raise ApplicationError("invalid", message)
    if logged is not None and after > logged:
        message = _("`after` is beyond the last released event (%(seq)s).") % {"seq": logged}
        raise ApplicationError("invalid", message)


class Waker:
    """Waits for the next nudge, or until a moment (an event held back till then).

    The wait for a nudge stays pending across timeouts. Cancelling it would end the listener.
    """

    def __init__(self, listener: AsyncIterator[object]) -> None:
        self.listener = listener
        self.pending: asyncio.Future[object] | None = None

    async def wait(self, due: datetime | None) -> None:
        if self.pending is None:
            self.pending = asyncio.ensure_future(anext(self.listener))
        timeout = None if due is None else max((due - timezone.now()).total_seconds(), 0.0)
        done, _ = await asyncio.wait({self.pending}, timeout=timeout)
        if done:
            self.pending.result()  # a closed listener ends the subscription
            self.pending = None

    def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()


def _match_state(match_id: int, info: strawberry.Info) -> tuple[int, Viewer]:
    match = match_by_id(match_id)
    return match.tournament_id, viewer_in(caller_seat(info), match.tournament_id)


def _match_slice(match_id: int, viewer: Viewer, after: int) -> tuple[list[MatchEventShape], bool]:
    """The frames after ``after``, and whether the match had released all it ever will.

    The status is read before the frames. A match finishing meanwhile is read once more.
    """
    match = match_by_id(match_id)
    done = public_status(match) in ("finished", "failed")
    return match_events(match, viewer, after=after), done


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="A tournament's events after seq `after`, gapless (`hidden` for those you "
        "may not see), then live; resume with the last seq you got."
    )
    async def tournament_events(
        self, info: strawberry.Info, tournament_id: TournamentId, after: After = 0
    ) -> AsyncGenerator[TournamentEventView, None]:
        number = tournament_number(tournament_id)
        viewer = await database_sync_to_async(_tournament_viewer)(info, number, after)
        last = after
        read = database_sync_to_async(events_after)
        async with info.context["ws"].listen_to_channel(
            NUDGE, groups=[group_name(number)]
        ) as listener:
            caught_up = False  # the log up to now is old news, not lag
            # An event stream, as /ws/tournaments/{id}/ is one.
            with metrics.open_stream(), closing(Waker(listener)) as waker:
                while True:
                    part = await read(tournament_id=number, after=last, viewer=viewer)
                    # Counted as the batch is handed to the socket, which sends each frame at
                    # once (the REST stream counts its batch once sent: the same moment to a
                    # millisecond or two, and a frame counted per call, not per event).
                    metrics.frames_sent(len(part.events), part.released if caught_up else ())
                    for event in part.events:  # the selector's shapes, as they are
                        yield event
                    last, caught_up = part.last_seq, caught_up or not part.more
                    await waker.wait(part.next_due)

    @strawberry.subscription(
        description="A match's released events after seq `after`, gapless, as you may see "
        "them; ends when the match has released its last event."
    )
    async def match_events(
        self, info: strawberry.Info, match_id: MatchId, after: After = 0
    ) -> AsyncGenerator[MatchEventView, None]:
        _check_after(after, None)
        number = match_number(match_id)
        tournament_id, viewer = await database_sync_to_async(_match_state)(number, info)
        last = after
        read = database_sync_to_async(_match_slice)
        async with info.context["ws"].listen_to_channel(
            NUDGE, groups=[group_name(tournament_id)]
        ) as listener:
            with metrics.open_stream(), closing(Waker(listener)) as waker:
                while True:
                    frames, done = await read(number, viewer, last)
                    metrics.frames_sent(len(frames))  # a match's frames carry no release time
                    for frame in frames:
                        yield frame
                        last = frame.seq
                    if done:
                        return
                    if not frames:
                        await waker.wait(timezone.now() + timedelta(seconds=MATCH_POLL_SECONDS))
