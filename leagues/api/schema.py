"""The league operations' summaries and refusals, added to the schema by ``apikit.openapi``."""

from __future__ import annotations

from apikit.openapi import Operation
from tournaments.api.schema import CREATE_400

L = "/api/v1/leagues/{slug}/"
WRITE = ["organizer_required", "not_league_organizer"]
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("GET", L + "calendar/"): Operation(
        "A league's calendar",
        "Its scheduled tournaments by start time: status, check-in window, who checked in, "
        "and how each scheduled start turned out.",
    ),
    ("GET", L + "tournaments/{tournament_id}/schedule/"): Operation(
        "Read a tournament's scheduled start", "As the calendar shows it.", {404: ["not_scheduled"]}
    ),
    ("POST", L + "tournaments/{tournament_id}/schedule/"): Operation(
        "Schedule a tournament's start (league organizer)",
        "A lobby starts by itself at `starts_at` (a day of its season) if every seat is taken "
        "and every player checked in during the `checkin_minutes` before; a player who did not "
        "check in cancels it with the reason, or with `no_show: bot` leaves its seat to a bot "
        "(a `no_show` correction of its member) and it starts. Scheduling again moves it.",
        {
            400: ["schedule_in_past", "schedule_outside_season", "naive_datetime"],
            403: WRITE,
            404: ["not_league_tournament"],
            409: ["not_in_lobby", "season_archived", "bots_not_allowed", "season_closed"],
        },
    ),
    ("GET", "/api/v1/leagues/tournaments/{tournament_id}/checkin/"): Operation(
        "Read a tournament's scheduled start and check-in",
        "As the calendar shows it, with the league's `slug` and `you`: the calling seat (from 1) "
        "and whether it checked in (`null` without this tournament's seat token).",
        {401: ["bad_token"], 404: ["not_scheduled"]},
    ),
    ("POST", "/api/v1/leagues/tournaments/{tournament_id}/checkin/"): Operation(
        "Check in for a scheduled start (seat token)",
        "The calling seat is ready; bots never need to.",
        {
            401: ["bad_token"],
            403: ["seat_required", "wrong_tournament"],
            409: ["not_scheduled", "checkin_not_open", "checkin_closed"],
        },
    ),
    ("GET", "/api/v1/leagues/"): Operation(
        "List public leagues", "Every public league (an unlisted one is reached by its slug)."
    ),
    ("POST", "/api/v1/leagues/"): Operation(
        "Create a league (organizer)",
        "The caller (an organizer token) becomes the league's first organizer.",
        {403: ["organizer_required"], 409: ["slug_taken"]},
    ),
    ("GET", L): Operation(
        "Read a league",
        "The league and its seasons (options, scoring table); the join codes only to its "
        "organizers.",
    ),
    ("POST", L + "seasons/"): Operation(
        "Create a season (league organizer)",
        "A season's scoring table and the options every tournament of it uses; the answer "
        "holds its join code.",
        {400: [*CREATE_400, "bad_scoring", "bad_season_dates"], 403: WRITE},
    ),
    ("POST", L + "seasons/{season_id}/tournaments/"): Operation(
        "Open a season's tournament (league organizer)",
        "An organizer's lobby (no seat taken) that joins the season; options left out take the "
        "season's, a differing one is refused.",
        {
            400: [*CREATE_400, "bad_title"],
            403: WRITE,
            404: ["unknown_season"],
            409: [
                "season_options",
                "season_not_started",
                "season_ended",
                "season_archived",
                "season_closed",
            ],
        },
    ),
    ("GET", L + "seasons/{season_id}/lines/"): Operation(
        "Export a season as JSON lines",
        "One line per tournament (its results), each followed by its matches once finished. "
        "The `ETag` names the content's version: a poll sends it back (`If-None-Match`, or "
        "`?since=` for the tournaments that changed) and is answered `304` while nothing did.",
        {404: ["unknown_season"]},
    ),
    ("GET", L + "standings/"): Operation(
        "Read a season's standings",
        "Rank, the tie-break vector (points, wins, finals, fans, played) and the criterion that "
        "decided each rank, with the league rating; `?kind=human|bot` ranks that kind alone; "
        "`?format=csv` for a CSV file. Without `?season=`: the newest season with a recorded "
        "result (the newest season when none has one).",
        {404: ["unknown_season"]},
    ),
    ("GET", L + "tournaments/{tournament_id}/results/"): Operation(
        "Read a league tournament's results",
        "Its results by place with each member's rating after it (none until it is recorded); "
        "`?format=csv` for a CSV file.",
        {404: ["not_league_tournament"]},
    ),
    ("POST", L + "members/"): Operation(
        "Create a member (league organizer)",
        "A human member: the claim code in the answer (shown once) lets its person claim a "
        "member token.",
        {403: WRITE, 409: ["handle_taken"]},
    ),
    ("GET", L + "members/"): Operation(
        "List a league's members (league organizer)",
        "Handle, kind, a bot's strength and whether the token is claimed; no secret.",
        {403: WRITE, 404: ["not_found"]},
    ),
    ("PATCH", L + "members/{handle}/"): Operation(
        "Rename a member (league organizer)",
        "A human member's new handle; its results, standings and rating follow it.",
        {403: WRITE, 404: ["unknown_member"], 409: ["handle_taken", "bot_member"]},
    ),
    ("DELETE", L + "members/{handle}/"): Operation(
        "Remove a member (league organizer)",
        "Only a human member that never sat in a league tournament (else disqualify it).",
        {403: WRITE, 404: ["unknown_member"], 409: ["member_in_use", "bot_member"]},
    ),
    ("POST", L + "members/{handle}/token/"): Operation(
        "Reissue a member's claim code (league organizer)",
        "A new claim code, shown once; the member's current token stops working.",
        {403: WRITE, 404: ["unknown_member"], 409: ["bot_member"]},
    ),
    ("PATCH", L + "seasons/{season_id}/"): Operation(
        "Edit or archive a season (league organizer)",
        "Name, dates, policies (for tournaments opened from now on) and `archived`; the scoring "
        "table's keys given until the season's first result is recorded, its tournaments' "
        "options until a tournament is opened in it (a cancelled one aside).",
        {
            400: [*CREATE_400, "bad_scoring", "bad_season_dates"],
            403: WRITE,
            404: ["unknown_season"],
            409: [
                "schedules_outside_season",
                "season_closed",
                "season_has_results",
                "season_has_tournaments",
            ],
        },
    ),
    ("DELETE", L + "seasons/{season_id}/"): Operation(
        "Delete an empty season (league organizer)",
        "Only a season no tournament ever joined and no correction names (else archive it).",
        {403: WRITE, 404: ["unknown_season"], 409: ["season_in_use", "season_closed"]},
    ),
    ("DELETE", L + "tournaments/{tournament_id}/schedule/"): Operation(
        "Delete a tournament's scheduled start (league organizer)",
        "Before its time: the lobby stays open, its check-ins go.",
        {
            403: WRITE,
            404: ["not_league_tournament", "not_scheduled"],
            409: ["schedule_settled", "season_closed"],
        },
    ),
    ("PATCH", L + "webhooks/{endpoint_id}/"): Operation(
        "Edit a webhook endpoint (league organizer)",
        "Its `url`, `events` or `active` flag, checked as at registration; its secret, sequence "
        "and delivery log are kept, and pending deliveries go to the new URL.",
        {
            400: ["bad_webhook_url", "webhook_url_forbidden", "bad_webhook_events"],
            403: WRITE,
            404: ["unknown_webhook"],
        },
    ),
    ("GET", L + "webhooks/"): Operation(
        "List a league's webhook endpoints (league organizer)",
        "Each endpoint's URL, events, whether active and its last sequence; never the secret.",
        {403: WRITE},
    ),
    ("DELETE", L + "webhooks/{endpoint_id}/"): Operation(
        "Delete a webhook endpoint (league organizer)",
        "Nothing more is sent to it; its delivery log goes with it.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
    ("POST", L + "webhooks/{endpoint_id}/secret/"): Operation(
        "Rotate a webhook's signing secret (league organizer)",
        "The new secret, shown once; every attempt from now on is signed with it.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
    ("POST", L + "webhooks/{endpoint_id}/ping/"): Operation(
        "Send a test ping (league organizer)",
        "A `ping` event to this endpoint alone, logged and retried like any delivery.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
    ("GET", L + "webhooks/{endpoint_id}/deliveries/"): Operation(
        "Read a webhook's delivery log (league organizer)",
        "The newest 100 deliveries first: status, attempts, last answer and error.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
    ("POST", L + "webhooks/{endpoint_id}/deliveries/{delivery_id}/retry/"): Operation(
        "Resend a delivery (league organizer)",
        "Sends it again, delivered or not, with the same idempotency key and body, signed "
        "anew: a new round of attempts, counted on in `attempts`, with `resent_at`.",
        {403: WRITE, 404: ["unknown_webhook", "unknown_delivery"], 409: ["delivery_pending"]},
    ),
    ("POST", L + "members/claim/"): Operation(
        "Claim a member token",
        "Trades the claim code (once) for the member token, shown this once.",
        {403: ["bad_claim_code"]},
    ),
    ("GET", L + "members/{handle}/"): Operation(
        "Read a member's history",
        "Each recorded tournament's place and points, with the rating after it and its change.",
        {404: ["unknown_member"]},
    ),
    ("POST", L + "webhooks/"): Operation(
        "Register a webhook endpoint (league organizer)",
        "Signed deliveries of `tournament_finished`, `round_finished`, `standings_changed` "
        "(docs/leagues.md); the answer holds the signing secret, shown once.",
        {400: ["bad_webhook_url", "webhook_url_forbidden", "bad_webhook_events"], 403: WRITE},
    ),
    ("GET", L + "embed-sites/"): Operation(
        "List the sites allowed to frame the standings widget (league organizer)",
        "Each origin that `/leagues/{slug}/embed/` names in its `frame-ancestors`.",
        {403: WRITE},
    ),
    ("POST", L + "embed-sites/"): Operation(
        "Allow a site to frame the standings widget (league organizer)",
        "An origin (`https://club.example`), stored as a browser writes it; at most 20.",
        {400: ["bad_origin"], 403: WRITE, 409: ["embed_site_exists", "too_many_embed_sites"]},
    ),
    ("DELETE", L + "embed-sites/{site_id}/"): Operation(
        "Stop a site framing the standings widget (league organizer)",
        "Its origin leaves the widget's `frame-ancestors` at once.",
        {403: WRITE, 404: ["unknown_embed_site"]},
    ),
    ("GET", L + "corrections/"): Operation(
        "List a league's corrections",
        "The audit trail: every correction, oldest first, with its reason.",
    ),
    ("POST", L + "corrections/"): Operation(
        "Correct a recorded result (league organizer)",
        "Disqualify a member from a tournament or a season, enter a tournament's places by "
        "hand, or record a member's forfeit of one match, with a reason: appended to the audit "
        "trail, then the league's results, standings and ratings are replayed with it and "
        "`standings_changed` is sent.",
        {
            400: ["bad_correction", "bad_manual_result"],
            403: WRITE,
            404: ["not_league_tournament", "unknown_member", "unknown_season", "unknown_match"],
            409: [
                "result_not_released",
                "member_not_in_tournament",
                "member_disqualified",
                "member_not_in_match",
                "match_not_won",
                "manual_result_entered",
                "season_closed",
            ],
        },
    ),
    ("POST", "/api/v1/leagues/tournaments/"): Operation(
        "Open a season's tournament with its join code",
        "The caller hosts (seat 0); with a member token of the league it sits as that member.",
        {
            400: [*CREATE_400, "bad_title"],
            401: ["bad_member_token"],
            403: ["wrong_league"],
            404: ["unknown_join_code"],
            409: [
                "season_options",
                "season_not_started",
                "season_ended",
                "season_archived",
                "no_room_code",
            ],
        },
    ),
    ("POST", "/api/v1/leagues/tournaments/join/"): Operation(
        "Join a league tournament as a member",
        "Takes a seat of the lobby with that room code, linked to the member whose token it is.",
        {
            401: ["bad_member_token"],
            403: ["wrong_league"],
            404: ["not_league_tournament", "unknown_code"],
            409: ["not_in_lobby", "name_taken", "tournament_full", "member_seated"],
        },
    ),
}

# The writes with a body: a ``StrictInput`` (apikit.actions), which refuses a field it does not
# declare. The others (check-in, a new token or secret, ping, retry) read no body.
BODILESS = ("checkin/", "token/", "secret/", "ping/", "retry/")
for (_method, _path), _operation in OPERATIONS.items():
    if _method in ("POST", "PATCH") and not _path.endswith(BODILESS):
        _operation.codes[400] = [*_operation.codes.get(400, []), "unknown_field"]
