"""The two reads a token of its own authenticates, over GraphQL as over REST: an organizer
account's (``Authorization: Token …``) and a join request's (``Authorization: Bearer …``). The
writes and lists are made from ``tournaments.leagues.organizing_actions``."""

from __future__ import annotations

import strawberry

from config.graphql import authorization
from config.shapes import graphql_type
from tournaments.leagues import organizing_actions
from tournaments.leagues.graphql.queries import Slug
from tournaments.leagues.organizing_shapes import JoinRequestStanding, OrganizerAccount

OrganizerAccountType = graphql_type(OrganizerAccount)
JoinRequestStandingType = graphql_type(JoinRequestStanding)


@strawberry.type
class OrganizingQuery:
    @strawberry.field(
        description="Where the caller's organizer account stands (REST: GET "
        "/api/v1/organizers/me/)."
    )
    def organizer_account(self, info: strawberry.Info) -> OrganizerAccountType:  # type: ignore[valid-type]
        return organizing_actions.account(authorization(info))

    @strawberry.field(
        description="The caller's request to join a league, by its token as a bearer token "
        "(REST: GET /api/v1/leagues/{slug}/join-requests/mine/)."
    )
    def join_request(self, info: strawberry.Info, slug: Slug) -> JoinRequestStandingType:  # type: ignore[valid-type]
        return organizing_actions.join_request_standing(authorization(info), slug)
