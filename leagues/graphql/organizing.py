"""The two reads a token of its own authenticates, over GraphQL as over REST.

They are an organizer account's (``Authorization: Token …``) and a join request's (``Authorization:
Bearer …``). The writes and lists are made from ``leagues.organizing_actions``.
"""

from __future__ import annotations

import strawberry

from apikit.graphql import authorization
from apikit.shapes import graphql_type
from leagues import organizing_actions
from leagues.graphql.queries import Slug
from leagues.organizing_shapes import JoinRequestStanding, OrganizerAccount

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
