"""GraphQL types of a tournament as one viewer may see it.

Each type is built from what REST answers with (the tournament's shapes, ``tournaments.shapes``,
and ``match_view``'s and ``match_events``' dictionaries): GraphQL never reads a model field REST
does not show, so a query selecting every field learns nothing REST hides.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.scalars import JSON

from config.shapes import connection_type, graphql_type
from tournaments import shapes
from tournaments.enums import MatchEventKind, QuestionKind

# The tournament's types, made from its shapes (``tournaments.shapes``): no field is written twice.
TournamentView = graphql_type(shapes.TournamentView)
SeatView = graphql_type(shapes.SeatView)
Ticket = graphql_type(shapes.Ticket)
TournamentListItem = graphql_type(shapes.TournamentListItem)
AdviceView = graphql_type(shapes.AdviceView)
ChatConnection = connection_type(shapes.ChatMessage)


@strawberry.type(description="A seat in a match.")
class MatchSeat:
    number: int = strawberry.field(description="Seat number.")
    name: str = strawberry.field(description="Its name.")
    side: str = strawberry.field(description="A or B in the match's events.")


@strawberry.type(description="Your pending question (only yours).")
class Question:
    seq: int = strawberry.field(description="Send it back with your answer.")
    kind: QuestionKind = strawberry.field(description="The question kind (docs/protocol.md).")
    card: JSON = strawberry.field(description="The uid of the card asking.")
    card_key: str | None = strawberry.field(description='Its "Set/Name".')
    options: JSON = strawberry.field(description="The options to choose from.")
    option_keys: list[str] = strawberry.field(description="The options' card keys.")
    option_seats: list[int | None] = strawberry.field(
        description="The bench seat (0-5) of each card option, null off the bench; [] otherwise."
    )
    min: int = strawberry.field(description="Fewest options to choose.")
    max: int = strawberry.field(description="Most options to choose.")
    prompt: str = strawberry.field(description="For people.")
    default: JSON = strawberry.field(description="The policy's answer.")
    deadline: datetime | None = strawberry.field(description="When the policy answers.")

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> Question | None:
        if data is None:
            return None
        names = [f.python_name for f in cls.__strawberry_definition__.fields]  # type: ignore[attr-defined]
        fields: dict[str, Any] = {name: data.get(name) for name in names}
        fields["option_seats"] = fields["option_seats"] or []  # a question stored before them
        return cls(**fields)


@strawberry.type(description="A match event as you may see it.")
class MatchEventView:
    seq: int = strawberry.field(description="1, 2, 3, … with no gap.")
    kind: MatchEventKind = strawberry.field(
        description="The kind, or `hidden` for one you may not see."
    )
    payload: JSON | None = strawberry.field(description="null for a hidden event.")


@strawberry.type(description="A tournament event as you may see it.")
class TournamentEventView:
    seq: int = strawberry.field(description="1, 2, 3, … with no gap.")
    kind: str = strawberry.field(description="The kind, or `hidden` for one you may not see.")
    payload: JSON | None = strawberry.field(description="null for a hidden event.")
