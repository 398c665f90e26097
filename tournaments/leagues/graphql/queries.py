"""League queries: each resolver calls the selector its REST twin calls (the same projection)."""

from __future__ import annotations

from typing import Annotated

import strawberry

from config.graphql import DEFAULT_PAGE, Connection, connection, offset_of, page_size
from tournaments.graphql.queries import caller_actor
from tournaments.leagues import selectors
from tournaments.leagues.api import inputs
from tournaments.leagues.graphql.types import LeagueItem, LeagueView, MemberHistory, Standings
from tournaments.selectors.viewers import Organizer

Slug = Annotated[str, strawberry.argument(description="The league's slug.")]


def caller_organizer(info: strawberry.Info) -> Organizer | None:
    """The calling organizer, if the caller is one (``bad_token`` for an unknown token)."""
    found = caller_actor(info)
    return found if isinstance(found, Organizer) else None


def _standings_query(season: int | None, kind: str | None) -> tuple[int | None, str]:
    """REST's ``?season=&kind=`` check (``invalid`` with the same details)."""
    given = {"season": season, "kind": kind}
    query = inputs.StandingsQuery(data={k: v for k, v in given.items() if v is not None})
    query.is_valid(raise_exception=True)
    return query.validated_data.get("season"), query.validated_data.get("kind", "all")


@strawberry.type
class Query:
    @strawberry.field(description="Public leagues (an unlisted one is reached by its slug).")
    def leagues(
        self,
        info: strawberry.Info,
        first: Annotated[int, strawberry.argument(description="Page size, 1-100.")] = DEFAULT_PAGE,
        after: Annotated[str | None, strawberry.argument(description="A cursor.")] = None,
    ) -> Connection[LeagueItem]:
        caller_actor(info)  # a bad token is refused here as in REST
        size, start = page_size(first), offset_of(after)
        every = selectors.league_list()
        items = [LeagueItem(**league) for league in every[start : start + size]]
        return connection(items, offset=start, total=len(every))

    @strawberry.field(description="A league and its seasons (join codes: its organizers only).")
    def league(self, info: strawberry.Info, slug: Slug) -> LeagueView:
        return LeagueView.of(selectors.league_view(slug, caller_organizer(info)))

    @strawberry.field(description="A season's standings, with the vector that decided each rank.")
    def standings(
        self,
        info: strawberry.Info,
        slug: Slug,
        season: Annotated[
            int | None,
            strawberry.argument(
                description="A season id; default: the newest with a recorded result."
            ),
        ] = None,
        kind: Annotated[
            str | None,
            strawberry.argument(
                description="human or bot: rank that kind of member alone; all (default)."
            ),
        ] = None,
    ) -> Standings:
        # As REST's standings view: it reads no caller (a bad token is not looked at).
        chosen_season, chosen_kind = _standings_query(season, kind)
        return Standings.of(selectors.standings_view(slug, chosen_season, chosen_kind))

    @strawberry.field(description="A member's results and rating, tournament by tournament.")
    def member(
        self,
        info: strawberry.Info,
        slug: Slug,
        handle: Annotated[str, strawberry.argument(description="The member's handle.")],
    ) -> MemberHistory:
        caller_actor(info)
        return MemberHistory.of(selectors.member_history(slug, handle))
