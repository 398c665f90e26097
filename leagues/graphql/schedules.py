"""A tournament's schedule over GraphQL, with the caller's check-in.

The calendar is a list (``leagues.lists``). Scheduling and check-in are actions
(``leagues.actions``).
"""

from __future__ import annotations

import strawberry

from leagues.graphql.types import TournamentScheduleView
from leagues.services import schedules
from leagues.shapes import TournamentScheduleView as TournamentScheduleShape
from tournaments.graphql.arguments import TournamentId, tournament_number
from tournaments.graphql.queries import caller_seat


@strawberry.type
class ScheduleQuery:
    @strawberry.field(
        description="A tournament's scheduled start, its league and the calling seat's check-in "
        "(REST: GET /api/v1/leagues/tournaments/{id}/checkin/); `not_scheduled` without one."
    )
    def tournament_schedule(
        self,
        info: strawberry.Info,
        tournament: TournamentId,
    ) -> TournamentScheduleView:
        number = tournament_number(tournament, "tournament")
        found: TournamentScheduleShape = schedules.tournament_schedule(
            tournament_id=number, seat=caller_seat(info)
        )
        return found
