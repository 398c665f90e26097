"""Organizer accounts, co-organizers, league edits and join requests, declared once.

They use ``apikit.actions`` and ``apikit.lists``, as ``leagues.actions`` does for the other league
writes. REST's views (``leagues.api.organizing``) are made from these. So are GraphQL's mutations
and connections.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from apikit.actions import Call, Ident, declare, result
from apikit.lists import Listed
from apikit.openapi import Operation
from infra.throttling import CreateThrottle, JoinThrottle
from leagues.actions import DELETING, DONE, LEAGUE, SLUG, organizer, strict
from leagues.api import organizing_inputs as inputs
from leagues.organizing_shapes import (
    JoinRequestList,
    JoinRequestStanding,
    JoinRequestTicket,
    JoinRequestView,
    OrganizerAccount,
    OrganizerChangeList,
    OrganizerItem,
    OrganizerList,
    OrganizerSignUp,
)
from leagues.services import accounts, joining, organizing
from leagues.shapes import LeagueList, LeagueView
from tournaments.callers import credential_of
from tournaments.selectors.viewers import BadToken

USERNAME = Ident("username", str, "The organizer's username.")
REQUEST = Ident("request_id", int, "The join request's id.")
CREATED = 201
# Refused to all but the league's organizers (an organizer token whose user lost the right too).
WRITE = ["organizer_required", "not_league_organizer", "not_organizer"]
DECIDE = {403: WRITE, 404: ["unknown_join_request"], 409: ["join_request_decided"]}
JOIN_REQUEST = result("join_request", JoinRequestView, "The join request, decided.")


def token_of(authorization: str, scheme: str, refusal: BadToken) -> str:
    """The token of an ``Authorization`` value of ``scheme``. ``refusal`` without one."""
    found = credential_of(authorization)
    if found is None or found[0] != scheme:
        raise refusal
    return found[1]


def account(authorization: str) -> OrganizerAccount:
    """Where the caller's organizer account stands (``Authorization: Token …``)."""
    needed = BadToken("bad_token", _("Send `Authorization: Token <organizer token>`."))
    return accounts.organizer_account(token=token_of(authorization, "token", needed))


def join_request_standing(authorization: str, slug: str) -> JoinRequestStanding:
    """The caller's join request (``Authorization: Bearer <request token>``)."""
    needed = BadToken("bad_request_token", _("Send `Authorization: Bearer <join request token>`."))
    token = token_of(authorization, "bearer", needed)
    return joining.join_request_standing(slug=slug, token=token)


def _update(call: Call) -> LeagueView:
    data = dict(call.data)
    slug = data.pop("slug")
    return organizing.league_update(organizer=organizer(call), slug=slug, changes=data)


def _decline(call: Call) -> JoinRequestView:
    data = call.data
    return joining.join_request_decline(
        organizer=organizer(call),
        slug=data["slug"],
        request_id=data["request_id"],
        reason=data["reason"],
    )


SIGN_UP_ORGANIZER = declare(
    "sign_up_organizer",
    "Ask for an organizer account: its token (shown once) acts once an admin approves it.",
    lambda call: accounts.organizer_sign_up(
        username=call.data["username"], about=call.data["about"]
    ),
    result("account", OrganizerSignUp, "The account, pending, and its token."),
    body=inputs.SignUpInput,
    throttle=CreateThrottle,
    status=CREATED,
    operation=Operation(
        "Sign up for an organizer account",
        "A pending account and its organizer token, shown once: the token organizes once an "
        "admin approves the request (until then `403 not_organizer`).",
        {409: ["username_taken"]},
    ),
)
UPDATE_LEAGUE = declare(
    "update_league",
    "A league's organizer edits its name, description or visibility: the fields given.",
    _update,
    LEAGUE,
    body=inputs.LeagueUpdateInput,
    path=(SLUG,),
    method="patch",
    operation=strict(
        "Edit a league (league organizer)",
        "Its name, description or visibility (`public`): the fields given, the others kept. "
        "The slug is the league's address and stays.",
        {403: WRITE},
    ),
)
DELETE_LEAGUE = declare(
    "delete_league",
    "A league's organizer deletes it while none of its tournaments was played.",
    lambda call: organizing.league_delete(organizer=organizer(call), slug=call.data["slug"]),
    DONE,
    path=(SLUG,),
    **DELETING,
    operation=Operation(
        "Delete a league (league organizer)",
        "With its seasons, members, webhooks and join requests, while none of its tournaments "
        "was played (its lobbies go on as ordinary tournaments).",
        {403: WRITE, 409: ["league_played"]},
    ),
)
ADD_ORGANIZER = declare(
    "add_organizer",
    "A league's organizer adds another approved organizer to it.",
    lambda call: organizing.organizer_add(
        organizer=organizer(call), slug=call.data["slug"], username=call.data["username"]
    ),
    result("organizer", OrganizerItem, "The organizer added."),
    body=inputs.OrganizerInput,
    path=(SLUG,),
    status=CREATED,
    operation=Operation(
        "Add a co-organizer (league organizer)",
        "Another approved organizer, by username, organizes the league too.",
        {403: WRITE, 404: ["unknown_organizer"], 409: ["already_organizer"]},
    ),
)
REMOVE_ORGANIZER = declare(
    "remove_organizer",
    "A league's organizer removes one of its organizers (itself included; never the last).",
    lambda call: organizing.organizer_remove(
        organizer=organizer(call), slug=call.data["slug"], username=call.data["username"]
    ),
    DONE,
    path=(SLUG, USERNAME),
    **DELETING,
    operation=Operation(
        "Remove an organizer (league organizer)",
        "One of the league's organizers (the caller included) stops organizing it; the last "
        "one stays.",
        {403: WRITE, 404: ["unknown_organizer"], 409: ["last_organizer"]},
    ),
)
ASK_TO_JOIN_LEAGUE = declare(
    "ask_to_join_league",
    "Ask to join a league as a member: the token returned reads the request.",
    lambda call: joining.join_request_send(
        slug=call.data["slug"], handle=call.data["handle"], message=call.data["message"]
    ),
    result("join_request", JoinRequestTicket, "The request, pending, and its token."),
    body=inputs.JoinRequestInput,
    path=(SLUG,),
    throttle=JoinThrottle,
    status=CREATED,
    operation=Operation(
        "Ask to join a league",
        "Anyone asks for a member handle; the token returned (shown once) reads the request "
        "and, once an organizer accepts it, the member's claim code.",
        {409: ["handle_taken", "join_requested"]},
    ),
)
ACCEPT_JOIN_REQUEST = declare(
    "accept_join_request",
    "A league's organizer accepts a join request: a member, whose claim code its player reads.",
    lambda call: joining.join_request_accept(
        organizer=organizer(call), slug=call.data["slug"], request_id=call.data["request_id"]
    ),
    JOIN_REQUEST,
    path=(SLUG, REQUEST),
    operation=Operation(
        "Accept a join request (league organizer)",
        "A human member with the handle asked for; its player reads the claim code.",
        {**DECIDE, 409: ["join_request_decided", "handle_taken"]},
    ),
)
DECLINE_JOIN_REQUEST = declare(
    "decline_join_request",
    "A league's organizer declines a join request (the reason is shown to its player).",
    _decline,
    JOIN_REQUEST,
    body=inputs.DeclineInput,
    path=(SLUG, REQUEST),
    operation=Operation(
        "Decline a join request (league organizer)",
        "The reason is shown to the player.",
        DECIDE,
    ),
)

ACTIONS = (
    SIGN_UP_ORGANIZER,
    UPDATE_LEAGUE,
    DELETE_LEAGUE,
    ADD_ORGANIZER,
    REMOVE_ORGANIZER,
    ASK_TO_JOIN_LEAGUE,
    ACCEPT_JOIN_REQUEST,
    DECLINE_JOIN_REQUEST,
)

ORGANIZERS = Listed(
    name="organizers",
    description="A league's organizers (its organizers only).",
    listing=OrganizerList,
    rows=lambda call: organizing.organizer_list(organizer=organizer(call), slug=call.data["slug"]),
    path=(SLUG,),
    operation=Operation(
        "List a league's organizers (league organizer)", "Their usernames.", {403: WRITE}
    ),
)
ORGANIZER_CHANGES = Listed(
    name="organizer_changes",
    description="Who added or removed which of a league's organizers, when (its organizers only).",
    listing=OrganizerChangeList,
    rows=lambda call: organizing.organizer_changes(
        organizer=organizer(call), slug=call.data["slug"]
    ),
    path=(SLUG,),
    operation=Operation(
        "List a league's organizer changes (league organizer)",
        "Who added or removed which organizer, and when, oldest first: the audit of who "
        "organizes the league.",
        {403: WRITE},
    ),
    query=lambda call: organizing.organizer_change_rows(
        organizer=organizer(call), slug=call.data["slug"]
    ),
)
JOIN_REQUESTS = Listed(
    name="join_requests",
    description="A league's join requests, oldest first (its organizers only): their audit.",
    listing=JoinRequestList,
    rows=lambda call: joining.join_request_list(organizer=organizer(call), slug=call.data["slug"]),
    path=(SLUG,),
    operation=Operation(
        "List a league's join requests (league organizer)",
        "Every request, oldest first, with who decided it, when and why: the audit of who was "
        "let in.",
        {403: WRITE},
    ),
)
MY_LEAGUES = Listed(
    name="my_leagues",
    description="The leagues the calling organizer organizes, public or unlisted.",
    listing=LeagueList,
    rows=lambda call: organizing.my_leagues(organizer=organizer(call)),
    operation=Operation(
        "List your leagues (organizer)",
        "Every league the caller organizes, public or unlisted.",
        {403: ["organizer_required", "not_organizer"]},
    ),
    query=lambda call: organizing.my_league_rows(organizer=organizer(call)),
)

LISTED = (ORGANIZERS, ORGANIZER_CHANGES, JOIN_REQUESTS, MY_LEAGUES)
