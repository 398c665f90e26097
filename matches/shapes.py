"""A match's responses, declared once (``apikit.shapes``).

``matches.selectors`` returns these. REST renders them (``to_json``). The OpenAPI schema and GraphQL
types derive from them.

Field order is REST's key order. A match's events are a connection GraphQL pages itself. GraphQL
reads ``events`` only when selected. REST serves them at their own address.
"""

from __future__ import annotations

import datetime
from typing import Any

from apikit.events import EventKinds, declare_events
from apikit.graphql_pages import EVENTS
from apikit.shapes import Pager, Shape, field, shape
from matches.engine.events import SHAPES as EVENT_SHAPES
from matches.enums import (
    HIDDEN,
    MatchEventKind,
    MatchKind,
    MatchSide,
    MatchViewStatus,
    QuestionKind,
)


@shape("A seat in a match.")
class MatchSeat(Shape):
    number: int = field("Seat number.")
    name: str = field("Its name.")
    side: str = field("A or B in the match's events.", enum=MatchSide)


@shape("Your pending question (only yours).")
class Question(Shape):
    seq: int = field("Send it back with your answer.")
    side: str = field("Your side in the match, A or B.", enum=MatchSide)
    kind: str = field("The question kind (docs/protocol.md).", enum=QuestionKind)
    card: Any = field("The uid of the card asking.")
    card_key: str | None = field('Its "Set/Name".')
    options: list[Any] = field("The options to choose from.")
    min: int = field("Fewest options to choose.")
    max: int = field("Most options to choose.")
    prompt: str = field("For people.")
    option_keys: list[str] = field("The options' card keys.")
    default: list[Any] = field("The policy's answer.")
    option_seats: list[int | None] = field(
        "The bench seat (0-5) of each card option, null off the bench; [] otherwise."
    )
    deadline: datetime.datetime | None = field("When the policy answers.")


@shape("A match event as you may see it.")
class MatchEventView(Shape):
    seq: int = field("1, 2, 3, … with no gap (payload.seq + 1).")
    kind: str = field("The event kind, or `hidden` for one you may not see.", enum=MatchEventKind)
    payload: dict[str, Any] | None = field("The event (docs/protocol.md); null for a hidden one.")


MATCH_EVENTS = declare_events(
    EventKinds(
        name="MatchEventView",
        shape=MatchEventView,
        kinds={**{kind: payload for kind, (payload, _who) in EVENT_SHAPES.items()}, HIDDEN: None},
        variant="MatchEvent",
        payload="MatchEventPayload",
        description="A match event as you may see it, by its kind (docs/protocol.md §10).",
        payload_union="MatchEvent",
        skip=frozenset({"seq", "kind"}),  # the envelope's: its seq is the payload's + 1
        seq_offset=1,
    )
)
"""A match's events typed, each kind's payload the engine's declaration
(``matches.engine.events.SHAPES``)."""


@shape("A match as you may see it.")
class MatchView(Shape):
    id: int = field("The match's number: `match(id:)`'s argument.", node_id=True)
    tournament: int = field("Its tournament's id.")
    round: int = field("Round 1-7, 8 = the Final.")
    park: str = field("The park.")
    kind: str = field("normal or winter.", enum=MatchKind)
    seats: list[MatchSeat] = field("Its two seats.", page=False)
    status: str = field(
        "scheduled, waiting, playing (recorded, events still being released), finished or failed.",
        enum=MatchViewStatus,
    )
    winner: int | None = field("Seat number, once visible.")
    reason: str | None = field("Why it ended, once visible.")
    fans_gained: dict[str, Any] | None = field("Fans each side gained, once visible.")
    events_released: int = field("Released events this viewer may see (hidden ones not counted).")
    question: Question | None = field("Your pending question (only yours).")
    events: Pager[MatchEventView] = field(
        "Released events, gapless (`hidden` for those you may not see); a cursor holds its "
        "event's seq, so `after` resumes where a page (or the subscription) ended.",
        rest=False,
        pages=EVENTS,
    )
