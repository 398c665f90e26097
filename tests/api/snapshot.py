"""What a refused request must leave as it was: every tournament, seat, event and match."""

from __future__ import annotations

from typing import Any

from matches.models import Match
from tournaments.models import Seat, Tournament, TournamentEvent


def everything() -> tuple[Any, ...]:
    """The rows and counters any accepted request would change."""
    tournaments = Tournament.objects.order_by("pk").values_list(
        "pk", "status", "round", "version", "event_seq"
    )
    seats = Seat.objects.order_by("pk").values_list("pk", "answers_live", "deck")
    matches = Match.objects.order_by("pk").values_list("pk", "status", "answers", "question")
    return (
        list(tournaments),
        list(seats),
        TournamentEvent.objects.count(),
        [(pk, status, list(answers), question) for pk, status, answers, question in matches],
    )
