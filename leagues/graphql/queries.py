"""League queries.

Each resolver calls the selector its REST twin calls and returns its shape unchanged. The GraphQL
types are made from the shapes (``leagues.graphql.types``).
"""

from __future__ import annotations

import re
from typing import Annotated

import strawberry

from apikit.global_ids import described, number_of
from leagues import inputs
from leagues.actions import SEASON
from leagues.enums import MemberKind
from leagues.graphql.types import (
    LeagueView,
    MemberHistory,
    Standings,
    TournamentResults,
)
from leagues.selectors import leagues as selectors
from leagues.shapes import LeagueView as LeagueViewShape
from leagues.shapes import MemberHistory as MemberHistoryShape
from leagues.shapes import Standings as StandingsShape
from leagues.shapes import TournamentResults as TournamentResultsShape
from tournaments.graphql.arguments import TournamentId, tournament_number
from tournaments.graphql.queries import caller_actor
from tournaments.selectors.viewers import Organizer

Slug = Annotated[str, strawberry.argument(description="The league's slug.")]


def caller_organizer(info: strawberry.Info) -> Organizer | None:
    """The calling organizer, if the caller is one. ``bad_token`` for an unknown token."""
    found = caller_actor(info)
    return found if isinstance(found, Organizer) else None


def _standings_query(
    season: strawberry.ID | None, kind: MemberKind | None
) -> tuple[int | None, str]:
    """REST's ``?season=&kind=`` check, ``invalid`` with the same details.

    A global id is read as its number first. A plain number (deprecated) is checked as REST checks
    it.
    """
    plain = season is None or re.fullmatch(r"-?[0-9]+", str(season))
    number = season if plain else number_of(season, "season", SEASON.nodes)
    given = {"season": number, "kind": None if kind is None else kind.value}
    query = inputs.StandingsQuery(data={k: v for k, v in given.items() if v is not None})
    query.is_valid(raise_exception=True)
    return query.validated_data.get("season"), query.validated_data.get("kind", "all")


@strawberry.type
class Query:
    @strawberry.field(description="A league and its seasons (join codes: its organizers only).")
    def league(self, info: strawberry.Info, slug: Slug) -> LeagueView:
        found: LeagueViewShape = selectors.league_view(slug, caller_organizer(info))
        return found

    @strawberry.field(description="A season's standings, with the vector that decided each rank.")
    def standings(
        self,
        info: strawberry.Info,
        slug: Slug,
        season: Annotated[
            strawberry.ID | None,
            strawberry.argument(
                description=described(
                    "A season (default: the newest with a recorded result)", SEASON.nodes
                )
            ),
        ] = None,
        kind: Annotated[
            MemberKind | None,
            strawberry.argument(
                description="HUMAN or BOT: rank that kind of member alone; ALL (default)."
            ),
        ] = None,
    ) -> Standings:
        # As REST's standings view: it reads no caller (a bad token is not looked at).
        chosen_season, chosen_kind = _standings_query(season, kind)
        found: StandingsShape = selectors.standings_view(slug, chosen_season, chosen_kind)
        return found

    @strawberry.field(description="A member's results and rating, tournament by tournament.")
    def member(
        self,
        info: strawberry.Info,
        slug: Slug,
        handle: Annotated[str, strawberry.argument(description="The member's handle.")],
    ) -> MemberHistory:
        caller_actor(info)
        found: MemberHistoryShape = selectors.member_history(slug, handle)
        return found

    @strawberry.field(description="A league tournament's results by place, with ratings.")
    def tournament_results(
        self,
        info: strawberry.Info,
        slug: Slug,
        tournament: TournamentId,
    ) -> TournamentResults:
        caller_actor(info)
        number = tournament_number(tournament, "tournament")
        found: TournamentResultsShape = selectors.tournament_results(slug, number)
        return found
