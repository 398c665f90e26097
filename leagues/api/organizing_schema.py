"""The summaries and refusals of the organizer-account, co-organizer, league-edit and
join-request operations, added to the schema by ``apikit.openapi``."""

from __future__ import annotations

from apikit.openapi import Operation

L = "/api/v1/leagues/{slug}/"
WRITE = ["organizer_required", "not_league_organizer", "not_organizer"]
DECIDE = {403: WRITE, 404: ["unknown_join_request"], 409: ["join_request_decided"]}
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("POST", "/api/v1/organizers/"): Operation(
        "Sign up for an organizer account",
        "A pending account and its organizer token, shown once: the token organizes once an "
        "admin approves the request (until then `403 not_organizer`).",
        {409: ["username_taken"]},
    ),
    ("GET", "/api/v1/organizers/me/"): Operation(
        "Read your organizer account",
        "Where the account of the organizer token stands: pending, approved, declined (with "
        "the reason) or revoked.",
        {401: ["bad_token"]},
    ),
    ("GET", "/api/v1/organizers/me/leagues/"): Operation(
        "List your leagues (organizer)",
        "Every league the caller organizes, public or unlisted.",
        {403: ["organizer_required", "not_organizer"]},
    ),
    ("PATCH", L): Operation(
        "Edit a league (league organizer)",
        "Its name, description or visibility (`public`): the fields given, the others kept. "
        "The slug is the league's address and stays.",
        {403: WRITE},
    ),
    ("DELETE", L): Operation(
        "Delete a league (league organizer)",
        "With its seasons, members, webhooks and join requests, while none of its tournaments "
        "was played (its lobbies go on as ordinary tournaments).",
        {403: WRITE, 409: ["league_played"]},
    ),
    ("GET", L + "organizers/"): Operation(
        "List a league's organizers (league organizer)", "Their usernames.", {403: WRITE}
    ),
    ("GET", L + "organizer-changes/"): Operation(
        "List a league's organizer changes (league organizer)",
        "Who added or removed which organizer, and when, oldest first: the audit of who "
        "organizes the league.",
        {403: WRITE},
    ),
    ("POST", L + "organizers/"): Operation(
        "Add a co-organizer (league organizer)",
        "Another approved organizer, by username, organizes the league too.",
        {403: WRITE, 404: ["unknown_organizer"], 409: ["already_organizer"]},
    ),
    ("DELETE", L + "organizers/{username}/"): Operation(
        "Remove an organizer (league organizer)",
        "One of the league's organizers (the caller included) stops organizing it; the last "
        "one stays.",
        {403: WRITE, 404: ["unknown_organizer"], 409: ["last_organizer"]},
    ),
    ("GET", L + "join-requests/"): Operation(
        "List a league's join requests (league organizer)",
        "Every request, oldest first, with who decided it, when and why: the audit of who was "
        "let in.",
        {403: WRITE},
    ),
    ("POST", L + "join-requests/"): Operation(
        "Ask to join a league",
        "Anyone asks for a member handle; the token returned (shown once) reads the request "
        "and, once an organizer accepts it, the member's claim code.",
        {409: ["handle_taken", "join_requested"]},
    ),
    ("GET", L + "join-requests/mine/"): Operation(
        "Read your join request (its token)",
        "The request its token names (`Authorization: Bearer <token>`): its status, the "
        "reason of a decline, and the member's claim code while it is unclaimed.",
        {401: ["bad_request_token"]},
    ),
    ("POST", L + "join-requests/{request_id}/accept/"): Operation(
        "Accept a join request (league organizer)",
        "A human member with the handle asked for; its player reads the claim code.",
        {**DECIDE, 409: ["join_request_decided", "handle_taken"]},
    ),
    ("POST", L + "join-requests/{request_id}/decline/"): Operation(
        "Decline a join request (league organizer)",
        "The reason is shown to the player.",
        DECIDE,
    ),
}
