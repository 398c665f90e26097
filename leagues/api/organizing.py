"""Organizer accounts, co-organizers, league edits and join requests.

The views are made from their declarations (``leagues.organizing_actions``). Two reads are
authenticated by a token of their own: an organizer account's and a join request's.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actions import rest_view
from apikit.lists import list_view
from apikit.openapi import operation
from apikit.shapes import to_json
from leagues import organizing_actions as declared
from leagues.api.views import LeagueDetailView as LeagueReadView
from leagues.organizing_shapes import JoinRequestStanding, OrganizerAccount
from tournaments.api.views import ApiView


class OrganizerAccountView(ApiView):
    @operation(
        "Read your organizer account",
        "Where the account of the organizer token stands: pending, approved, declined (with "
        "the reason) or revoked.",
        {401: ["bad_token"]},
    )
    @extend_schema(responses=OrganizerAccount)
    def get(self, request: Request) -> Response:
        """Where the caller's organizer account stands (`Authorization: Token …`)."""
        header = request.headers.get("Authorization", "")
        return Response(to_json(declared.account(header)))


class JoinRequestReadView(ApiView):
    @operation(
        "Read your join request (its token)",
        "The request its token names (`Authorization: Bearer <token>`): its status, the "
        "reason of a decline, and the member's claim code while it is unclaimed.",
        {401: ["bad_request_token"]},
    )
    @extend_schema(responses=JoinRequestStanding)
    def get(self, request: Request, slug: str) -> Response:
        """The caller's join request (`Authorization: Bearer <join request token>`)."""
        header = request.headers.get("Authorization", "")
        return Response(to_json(declared.join_request_standing(header, slug)))


OrganizerListBase = list_view("OrganizerListBase", declared.ORGANIZERS, ApiView)
OrganizerChangesView = list_view("OrganizerChangesView", declared.ORGANIZER_CHANGES, ApiView)
JoinRequestListBase = list_view("JoinRequestListBase", declared.JOIN_REQUESTS, ApiView)
MyLeaguesView = list_view("MyLeaguesView", declared.MY_LEAGUES, ApiView)

SignUpView = rest_view("SignUpView", (declared.SIGN_UP_ORGANIZER,), ApiView)
LeagueView = rest_view(
    "LeagueView", (declared.UPDATE_LEAGUE, declared.DELETE_LEAGUE), LeagueReadView
)
OrganizersView = rest_view("OrganizersView", (declared.ADD_ORGANIZER,), OrganizerListBase)
OrganizerView = rest_view("OrganizerView", (declared.REMOVE_ORGANIZER,), ApiView)
JoinRequestsView = rest_view(
    "JoinRequestsView", (declared.ASK_TO_JOIN_LEAGUE,), JoinRequestListBase
)
JoinAcceptView = rest_view("JoinAcceptView", (declared.ACCEPT_JOIN_REQUEST,), ApiView)
JoinDeclineView = rest_view("JoinDeclineView", (declared.DECLINE_JOIN_REQUEST,), ApiView)
