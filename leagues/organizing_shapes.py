"""The answers of organizer accounts, co-organizers and join requests, declared once.

They use ``apikit.shapes``, as ``leagues.shapes`` does for the other league answers.
"""

from __future__ import annotations

import datetime

from apikit.enums import enum_of
from apikit.shapes import Shape, field, listing, made_in, shape
from leagues.models import JoinStatus, OrganizerChangeKind, RequestStatus

ACCOUNT_STATUSES = (*RequestStatus.values, "revoked")
AccountStatus = enum_of(
    "OrganizerAccountStatus",
    ACCOUNT_STATUSES,
    "pending: waiting for an admin; approved: organizes; declined; revoked: the permission "
    "was taken away.",
)
OrganizerChangeEnum = enum_of(
    "OrganizerChangeKind", OrganizerChangeKind.values, "added or removed."
)
JoinRequestStatus = enum_of(
    "JoinRequestStatus", JoinStatus.values, "pending, accepted (a member) or declined."
)


@shape("An organizer account and where its sign-up stands.")
class OrganizerAccount(Shape):
    username: str = field("The account's username.")
    status: str = field("pending, approved, declined or revoked.", enum=AccountStatus)
    about: str = field("What the sign-up said (empty for an account made otherwise).")
    requested_at: datetime.datetime | None = field("When it signed up (none: made otherwise).")
    decided_at: datetime.datetime | None = field("When an admin decided, if one did.")
    reason: str = field("Why it was declined (empty otherwise).")


@shape("A new organizer account, waiting for an admin's approval, and its token.")
class OrganizerSignUp(OrganizerAccount):
    token: str = field("Send as `Authorization: Token <token>`; shown once.")


@shape("One of a league's organizers.")
class OrganizerItem(Shape):
    username: str = field("The organizer's username.")


@shape("An organizer added to a league or removed from it: the league's audit of its organizers.")
class OrganizerChangeItem(Shape):
    username: str = field("The organizer added or removed.")
    change: str = field("added or removed.", enum=OrganizerChangeEnum)
    by: str = field("The organizer who made the change (the same one: left by itself).")
    at: datetime.datetime = field("When.")


@shape("A request to join a league, as its organizers see it (the league's audit of it).")
class JoinRequestView(Shape):
    id: int = field("The request's id.")
    handle: str = field("The handle asked for.")
    message: str = field("What the player wrote.")
    status: str = field("pending, accepted or declined.", enum=JoinRequestStatus)
    member: str | None = field("The member it made (accepted), by its handle now.")
    reason: str = field("Why it was declined (empty otherwise).")
    decided_by: str | None = field("The organizer who decided (none: pending, or deleted).")
    created_at: datetime.datetime = field("When it was sent.")
    decided_at: datetime.datetime | None = field("When it was decided.")


@shape("A request to join a league, sent, and the token that reads it.")
class JoinRequestTicket(Shape):
    id: int = field("The request's id.")
    league: str = field("The league's slug.")
    handle: str = field("The handle asked for.")
    status: str = field("pending.", enum=JoinRequestStatus)
    token: str = field("Reads the request: `Authorization: Bearer <token>`; shown once.")


@shape("A request to join a league, as the player who sent it reads it.")
class JoinRequestStanding(Shape):
    id: int = field("The request's id.")
    league: str = field("The league's slug.")
    handle: str = field("The handle asked for.")
    status: str = field("pending, accepted or declined.", enum=JoinRequestStatus)
    member: str | None = field("The member it made (accepted), by its handle now.")
    reason: str = field("Why it was declined (empty otherwise).")
    claim_code: str | None = field(
        "Accepted and not yet claimed: the member's claim code "
        "(`POST /api/v1/leagues/{slug}/members/claim/`); none otherwise."
    )
    created_at: datetime.datetime = field("When it was sent.")
    decided_at: datetime.datetime | None = field("When it was decided.")


OrganizerList = listing(OrganizerItem, "OrganizerList", "A league's organizers.")
OrganizerChangeList = listing(
    OrganizerChangeItem, "OrganizerChangeList", "A league's organizer changes, oldest first."
)
JoinRequestList = listing(JoinRequestView, "JoinRequestList", "A league's join requests.")

# Rows of one model each: their GraphQL types are the models' (strawberry-django's).
made_in("leagues.graphql.types", OrganizerChangeItem)
