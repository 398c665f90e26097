"""Every league action, declared once (``apikit.actions``).

REST's league views (``leagues.api``) and GraphQL's league mutations are made from these.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypedDict

from rest_framework import status

from apikit.actions import Answer, Call, Ident, Result, declare, result
from apikit.openapi import Operation
from apikit.shapes import graphql_type
from infra.throttling import CreateThrottle, JoinThrottle
from leagues import inputs
from leagues.enums import CorrectionKind, WebhookEvent
from leagues.models import Season
from leagues.selectors import leagues as selectors
from leagues.services import closing, corrections, managing, schedules, seasons
from leagues.services import leagues as services
from leagues.shapes import (
    CheckInView,
    CorrectionView,
    Delivery,
    Done,
    EmbedSiteItem,
    LeagueView,
    MemberItem,
    MemberToken,
    NewMember,
    ScheduleView,
    SeasonView,
    Webhook,
    WebhookItem,
    WebhookSecret,
)
from leagues.web import embeds
from tournaments import enums as _tournament_enums  # noqa: F401 (BasicSet, WinterMode)
from tournaments.actions import CREATE_400, TICKET_ANSWER, seat, ticket
from tournaments.callers import actor_of
from tournaments.selectors.viewers import Organizer
from tournaments.shapes import Ticket

SLUG = Ident("slug", str, "The league's slug.")
SEASON = Ident("season_id", int, "The season's id.", nodes=("SeasonView",))
HANDLE = Ident("handle", str, "The member's handle.", field="member")
ENDPOINT = Ident("endpoint_id", int, "The webhook endpoint's id.", nodes=("WebhookItem",))
SITE = Ident("site_id", int, "The allowed site's id.", field="id")
DELIVERY = Ident("delivery_id", int, "The delivery's id.", nodes=("Delivery",))
TOURNAMENT = Ident(
    "tournament_id",
    int,
    "The tournament's id.",
    field="tournament",
    nodes=("TournamentView", "TournamentListItem"),
)
CREATED = status.HTTP_201_CREATED
# The options a kind of action shares, named once: a deletion answers 204 with no body; an
# action that issues something (a tournament, a code, a secret, a sent event) is throttled as a
# creation and answers 201.
DELETING: dict[str, Any] = {
    "method": "delete",
    "status": status.HTTP_204_NO_CONTENT,
    "response": None,
}
ISSUING: dict[str, Any] = {"throttle": CreateThrottle, "status": CREATED}
WRITE = ["organizer_required", "not_league_organizer"]  # refused to all but its organizers


def strict(
    summary: str, description: str, codes: Mapping[int, Sequence[str]] | None = None
) -> Operation:
    """The operation of a write whose body (a ``StrictInput``) refuses undeclared fields.

    Besides ``codes``, it answers 400 ``unknown_field``.
    """
    given = dict(codes or {})
    return Operation(summary, description, {**given, 400: [*given.get(400, []), "unknown_field"]})


def organizer(call: Call) -> Organizer | None:
    """The calling organizer, if the caller is one. ``bad_token`` for an unknown token."""
    found = actor_of(call.authorization)
    return found if isinstance(found, Organizer) else None


LEAGUE = result("league", LeagueView, "The league.")
SEASON_RESULT = result("season", SeasonView, "The season.")
TICKET = TICKET_ANSWER  # the tournaments app's ticket
DONE = Answer(Result("done", graphql_type(Done), "Done.", lambda body, _: Done(ok=True)), None)


def _league(call: Call) -> LeagueView:
    league = services.league_create(organizer=organizer(call), **call.data)
    return selectors.league_view(league.slug, None)


def _season(call: Call) -> SeasonView:
    data = dict(call.data)
    scoring, slug = data.pop("scoring", None), data.pop("slug")
    season = services.season_create(
        organizer=organizer(call),
        slug=slug,
        name=data["name"],
        starts_on=data["starts_on"],
        ends_on=data["ends_on"],
        scoring=dict(scoring) if scoring else None,
        bots_allowed=data["bots_allowed"],
        advice_allowed=data["advice_allowed"],
        **inputs.tournament_options(data),
    )
    return selectors.season_view(season, organizer=True)


def _season_tournament(call: Call) -> Ticket:
    data = call.data
    services.require_season_in(data["slug"], data["season_id"])
    tournament = services.season_tournament_organize(
        organizer=organizer(call),
        season_id=data["season_id"],
        seat_count=data["seats"],
        deck_deadline_seconds=data["deck_deadline_seconds"],
        answer_deadline_seconds=data["answer_deadline_seconds"],
        title=data["title"],
        **inputs.tournament_options(data),
    )
    return Ticket.of(tournament.pk, tournament.code, None, None)


def _hosted(call: Call) -> Ticket:
    data = call.data
    return ticket(
        services.season_tournament_host(
            join_code=data["join_code"],
            host_name=data["name"],
            member_token=data.get("member_token"),
            seat_count=data["seats"],
            deck_deadline_seconds=data["deck_deadline_seconds"],
            answer_deadline_seconds=data["answer_deadline_seconds"],
            title=data["title"],
            **inputs.tournament_options(data),
        )
    )


def _member(call: Call) -> NewMember:
    made, claim = services.member_create(
        organizer=organizer(call), slug=call.data["slug"], handle=call.data["handle"]
    )
    return NewMember(member=made.handle, kind=made.kind, claim_code=claim)


def _claim(call: Call) -> MemberToken:
    made, token = services.member_claim(slug=call.data["slug"], claim_code=call.data["claim_code"])
    return MemberToken(member=made.handle, token=token)


def _webhook(call: Call) -> Webhook:
    data = call.data
    endpoint, secret = services.webhook_create(
        organizer=organizer(call), slug=data["slug"], url=data["url"], events=data["events"]
    )
    return Webhook(id=endpoint.pk, url=endpoint.url, events=endpoint.events, secret=secret)


def _correction(call: Call) -> CorrectionView:
    data = call.data  # a valid ``CorrectionInput``, named as ``correction_create`` names it
    made = corrections.correction_create(
        organizer=organizer(call),
        slug=data["slug"],
        kind=data["kind"],
        reason=data["reason"],
        tournament_id=data.get("tournament"),
        season_id=data.get("season"),
        member=data.get("member"),
        places=data.get("places"),
        match_id=data.get("match"),
    )
    return selectors.correction_view(made)


def _rename(call: Call) -> MemberItem:
    slug, new = call.data["slug"], call.data["handle"]  # ``member``: the handle it had
    managing.member_rename(
        organizer=organizer(call), slug=slug, handle=call.data["member"], new=new
    )
    return next(m for m in selectors.member_list(slug) if m.member == new)


def _reissue(call: Call) -> NewMember:
    handle = call.data["member"]
    claim = managing.member_token_reissue(
        organizer=organizer(call), slug=call.data["slug"], handle=handle
    )
    return NewMember(member=handle, kind="human", claim_code=claim)


def _update(call: Call) -> SeasonView:
    data = dict(call.data)
    slug, season_id = data.pop("slug"), data.pop("season_id")
    season = seasons.season_update(
        organizer=organizer(call),
        slug=slug,
        season_id=season_id,
        changes=inputs.season_changes(data),
    )
    return selectors.season_view(season, organizer=True)


class SeasonChange(Protocol):
    """``closing.season_close`` or ``season_reopen``."""

    def __call__(
        self, *, organizer: Organizer | None, slug: str, season_id: int, reason: str
    ) -> Season: ...


def _closure(change: SeasonChange) -> Callable[[Call], SeasonView]:
    """A close or reopen's run, returning the season as it is after."""

    def run(call: Call) -> SeasonView:
        data = call.data
        season = change(
            organizer=organizer(call),
            slug=data["slug"],
            season_id=data["season_id"],
            reason=data["reason"],
        )
        return selectors.season_view(season, organizer=True)

    return run


class Endpoint(TypedDict):
    """The keyword arguments naming one of a league's webhook endpoints."""

    organizer: Organizer | None
    slug: str
    endpoint_id: int


def _endpoint(call: Call) -> Endpoint:
    """The arguments naming the caller's endpoint. ``managing`` checks it is theirs."""
    data = call.data
    return {"organizer": organizer(call), "slug": data["slug"], "endpoint_id": data["endpoint_id"]}


def _webhook_update(call: Call) -> WebhookItem:
    changes = {k: v for k, v in call.data.items() if k not in ("slug", "endpoint_id")}
    return selectors.webhook_view(managing.webhook_update(**_endpoint(call), changes=changes))


def _rotate(call: Call) -> WebhookSecret:
    secret = managing.webhook_rotate(**_endpoint(call))
    return WebhookSecret(id=call.data["endpoint_id"], secret=secret)


CREATE_LEAGUE = declare(
    "create_league",
    "An organizer creates a league (and organizes it).",
    _league,
    LEAGUE,
    body=inputs.LeagueInput,
    status=CREATED,
    operation=strict(
        "Create a league (organizer)",
        "The caller (an organizer token) becomes the league's first organizer.",
        {403: ["organizer_required"], 409: ["slug_taken"]},
    ),
)
CREATE_SEASON = declare(
    "create_season",
    "A league's organizer adds a season.",
    _season,
    SEASON_RESULT,
    body=inputs.SeasonInput,
    path=(SLUG,),
    status=CREATED,
    operation=strict(
        "Create a season (league organizer)",
        "A season's scoring table and the options every tournament of it uses; the answer "
        "holds its join code.",
        {400: [*CREATE_400, "bad_scoring", "bad_season_dates"], 403: WRITE},
    ),
)
OPEN_SEASON_TOURNAMENT = declare(
    "open_season_tournament",
    "A league's organizer opens a season tournament (no seat): options left out take the "
    "season's; one that differs is refused.",
    _season_tournament,
    TICKET,
    body=inputs.SeasonTournamentInput,
    path=(SLUG, SEASON),
    **ISSUING,
    operation=strict(
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
)
HOST_SEASON_TOURNAMENT = declare(
    "host_season_tournament",
    "Host a season tournament with the season's join code (as a member with its token).",
    _hosted,
    TICKET,
    body=inputs.HostTournamentInput,
    **ISSUING,
    operation=strict(
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
)
JOIN_SEASON_TOURNAMENT = declare(
    "join_season_tournament",
    "Join a season tournament's lobby as a league member.",
    lambda call: ticket(
        services.league_seat_join(
            code=call.data["code"],
            name=call.data.get("name"),
            member_token=call.data["member_token"],
        )
    ),
    TICKET,
    body=inputs.MemberJoinInput,
    throttle=JoinThrottle,
    status=CREATED,
    operation=strict(
        "Join a league tournament as a member",
        "Takes a seat of the lobby with that room code, linked to the member whose token it is.",
        {
            401: ["bad_member_token"],
            403: ["wrong_league"],
            404: ["not_league_tournament", "unknown_code"],
            409: ["not_in_lobby", "name_taken", "tournament_full", "member_seated"],
        },
    ),
)
CREATE_MEMBER = declare(
    "create_member",
    "A league's organizer adds a member (and its claim code).",
    _member,
    result("member", NewMember, "The member and its claim code."),
    body=inputs.MemberInput,
    path=(SLUG,),
    status=CREATED,
    operation=strict(
        "Create a member (league organizer)",
        "A human member: the claim code in the answer (shown once) lets its person claim a "
        "member token.",
        {403: WRITE, 409: ["handle_taken"]},
    ),
)
CLAIM_MEMBER = declare(
    "claim_member",
    "A player claims a member with its claim code (once).",
    _claim,
    result("member", MemberToken, "The member and its token."),
    body=inputs.ClaimInput,
    path=(SLUG,),
    throttle=JoinThrottle,
    status=CREATED,
    operation=strict(
        "Claim a member token",
        "Trades the claim code (once) for the member token, shown this once.",
        {403: ["bad_claim_code"]},
    ),
)
CREATE_WEBHOOK = declare(
    "create_webhook",
    "A league's organizer adds a signed webhook endpoint.",
    _webhook,
    result("webhook", Webhook, "The endpoint and its secret (shown once)."),
    body=inputs.WebhookInput,
    path=(SLUG,),
    status=CREATED,
    enums={"events": list[WebhookEvent]},
    operation=strict(
        "Register a webhook endpoint (league organizer)",
        "Signed deliveries of `tournament_finished`, `round_finished`, `standings_changed` "
        "(docs/leagues.md); the answer holds the signing secret, shown once.",
        {400: ["bad_webhook_url", "webhook_url_forbidden", "bad_webhook_events"], 403: WRITE},
    ),
)
CORRECT_RESULT = declare(
    "correct_result",
    "A league's organizer corrects a recorded result.",
    _correction,
    result("correction", CorrectionView, "The correction."),
    body=inputs.CorrectionInput,
    path=(SLUG,),
    status=CREATED,
    enums={"kind": CorrectionKind},
    nodes={
        "tournament": ("TournamentView", "TournamentListItem"),
        "season": ("SeasonView",),
        "match": ("MatchView",),
    },
    operation=strict(
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
)
RENAME_MEMBER = declare(
    "rename_member",
    "A league's organizer renames a human member (`handle`: the new handle).",
    _rename,
    result("member", MemberItem, "The member renamed."),
    body=inputs.MemberInput,
    path=(SLUG, HANDLE),
    method="patch",
    operation=strict(
        "Rename a member (league organizer)",
        "A human member's new handle; its results, standings and rating follow it.",
        {403: WRITE, 404: ["unknown_member"], 409: ["handle_taken", "bot_member"]},
    ),
)
REMOVE_MEMBER = declare(
    "remove_member",
    "A league's organizer removes a member with no record.",
    lambda call: managing.member_remove(
        organizer=organizer(call), slug=call.data["slug"], handle=call.data["member"]
    ),
    DONE,
    path=(SLUG, HANDLE),
    **DELETING,
    operation=Operation(
        "Remove a member (league organizer)",
        "Only a human member that never sat in a league tournament (else disqualify it).",
        {403: WRITE, 404: ["unknown_member"], 409: ["member_in_use", "bot_member"]},
    ),
)
REISSUE_MEMBER_TOKEN = declare(
    "reissue_member_token",
    "A new claim code for a member; its token stops working.",
    _reissue,
    result("member", NewMember, "The member and its new claim code."),
    path=(SLUG, HANDLE),
    **ISSUING,
    operation=Operation(
        "Reissue a member's claim code (league organizer)",
        "A new claim code, shown once; the member's current token stops working.",
        {403: WRITE, 404: ["unknown_member"], 409: ["bot_member"]},
    ),
)
UPDATE_SEASON = declare(
    "update_season",
    "A league's organizer edits or archives a season: the fields given, the others kept; its "
    "scoring until its first result, its options until a tournament is opened in it.",
    _update,
    SEASON_RESULT,
    body=inputs.SeasonUpdateInput,
    path=(SLUG, SEASON),
    method="patch",
    operation=strict(
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
)
DELETE_SEASON = declare(
    "delete_season",
    "A league's organizer deletes a season no tournament ever joined.",
    lambda call: seasons.season_delete(
        organizer=organizer(call), slug=call.data["slug"], season_id=call.data["season_id"]
    ),
    DONE,
    path=(SLUG, SEASON),
    **DELETING,
    operation=Operation(
        "Delete an empty season (league organizer)",
        "Only a season no tournament ever joined and no correction names (else archive it).",
        {403: WRITE, 404: ["unknown_season"], 409: ["season_in_use", "season_closed"]},
    ),
)
CLOSE_SEASON = declare(
    "close_season",
    "A league's organizer closes a season's results: no date, schedule, correction or late "
    "result changes them until it is reopened (`season_closed`).",
    _closure(closing.season_close),
    SEASON_RESULT,
    body=inputs.ClosureInput,
    path=(SLUG, SEASON),
    operation=strict(
        "Close a season's results (league organizer)",
        "Dates, schedules, corrections and late results are refused `season_closed` until it "
        "is reopened; `reason` is kept in the season's audit.",
        {403: WRITE, 404: ["unknown_season"], 409: ["season_already_closed"]},
    ),
)
REOPEN_SEASON = declare(
    "reopen_season",
    "A league's organizer reopens a closed season's results.",
    _closure(closing.season_reopen),
    SEASON_RESULT,
    body=inputs.ClosureInput,
    path=(SLUG, SEASON),
    operation=strict(
        "Reopen a season's results (league organizer)",
        "Its results take changes again; `reason` is kept in the season's audit.",
        {403: WRITE, 404: ["unknown_season"], 409: ["season_not_closed"]},
    ),
)
DELETE_WEBHOOK = declare(
    "delete_webhook",
    "A league's organizer deletes a webhook endpoint.",
    lambda call: managing.webhook_delete(**_endpoint(call)),
    DONE,
    path=(SLUG, ENDPOINT),
    **DELETING,
    operation=Operation(
        "Delete a webhook endpoint (league organizer)",
        "Nothing more is sent to it; its delivery log goes with it.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
)
UPDATE_WEBHOOK = declare(
    "update_webhook",
    "A league's organizer changes an endpoint's URL, events or active flag (its secret kept).",
    _webhook_update,
    result("webhook", WebhookItem, "The endpoint as it is now."),
    body=inputs.WebhookUpdateInput,
    path=(SLUG, ENDPOINT),
    method="patch",
    enums={"events": list[WebhookEvent]},
    operation=strict(
        "Edit a webhook endpoint (league organizer)",
        "Its `url`, `events` or `active` flag, checked as at registration; its secret, sequence "
        "and delivery log are kept, and pending deliveries go to the new URL.",
        {
            400: ["bad_webhook_url", "webhook_url_forbidden", "bad_webhook_events"],
            403: WRITE,
            404: ["unknown_webhook"],
        },
    ),
)
ROTATE_WEBHOOK_SECRET = declare(
    "rotate_webhook_secret",
    "A new signing secret for an endpoint (shown once).",
    _rotate,
    result("webhook", WebhookSecret, "The endpoint's new secret."),
    path=(SLUG, ENDPOINT),
    **ISSUING,
    operation=Operation(
        "Rotate a webhook's signing secret (league organizer)",
        "The new secret, shown once; every attempt from now on is signed with it.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
)
PING_WEBHOOK = declare(
    "ping_webhook",
    "A test ping to one endpoint, logged as a delivery.",
    lambda call: selectors.delivery_view(managing.webhook_ping(**_endpoint(call))),
    result("delivery", Delivery, "The ping's delivery."),
    path=(SLUG, ENDPOINT),
    **ISSUING,
    operation=Operation(
        "Send a test ping (league organizer)",
        "A `ping` event to this endpoint alone, logged and retried like any delivery.",
        {403: WRITE, 404: ["unknown_webhook"]},
    ),
)
RETRY_DELIVERY = declare(
    "retry_delivery",
    "Send a delivery again, delivered or not (same key and body, signed anew).",
    lambda call: selectors.delivery_view(
        managing.delivery_retry(**_endpoint(call), delivery_id=call.data["delivery_id"])
    ),
    result("delivery", Delivery, "The delivery sent again."),
    path=(SLUG, ENDPOINT, DELIVERY),
    throttle=CreateThrottle,
    operation=Operation(
        "Resend a delivery (league organizer)",
        "Sends it again, delivered or not, with the same idempotency key and body, signed "
        "anew: a new round of attempts, counted on in `attempts`, with `resent_at`.",
        {403: WRITE, 404: ["unknown_webhook", "unknown_delivery"], 409: ["delivery_pending"]},
    ),
)


def _schedule(call: Call) -> ScheduleView:
    data = call.data
    made = schedules.schedule_set(
        organizer=organizer(call),
        slug=data["slug"],
        tournament_id=data["tournament"],
        starts_at=data["starts_at"],
        checkin_minutes=data["checkin_minutes"],
        no_show=data["no_show"],
        bot_level=data["bot_level"],
    )
    return schedules.schedule_view(made)


def _checkin(call: Call) -> CheckInView:
    checkin = schedules.seat_checkin(tournament_id=call.data["tournament"], seat=seat(call))
    return CheckInView(seat=checkin.seat.number + 1, checked_in_at=checkin.at)


SCHEDULE_START = declare(
    "schedule_start",
    "A league's organizer schedules (or moves) a lobby's start on a day of its season; check-in "
    "opens `checkin_minutes` before; `no_show` says what a player who did not check in causes.",
    _schedule,
    result("schedule", ScheduleView, "The scheduled start."),
    body=inputs.ScheduleInput,
    path=(SLUG, TOURNAMENT),
    status=CREATED,
    operation=strict(
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
)
UNSCHEDULE_START = declare(
    "unschedule_start",
    "A league's organizer deletes a lobby's scheduled start before its time (the lobby stays).",
    lambda call: schedules.schedule_delete(
        organizer=organizer(call), slug=call.data["slug"], tournament_id=call.data["tournament"]
    ),
    DONE,
    path=(SLUG, TOURNAMENT),
    **DELETING,
    operation=Operation(
        "Delete a tournament's scheduled start (league organizer)",
        "Before its time: the lobby stays open, its check-ins go.",
        {
            403: WRITE,
            404: ["not_league_tournament", "not_scheduled"],
            409: ["schedule_settled", "season_closed"],
        },
    ),
)
CHECK_IN = declare(
    "check_in",
    "The calling seat checks in for its tournament's scheduled start (again: the same check-in).",
    _checkin,
    result("check_in", CheckInView, "The seat's check-in."),
    path=(TOURNAMENT,),
    operation=Operation(
        "Check in for a scheduled start (seat token)",
        "The calling seat is ready; bots never need to.",
        {
            401: ["bad_token"],
            403: ["seat_required", "wrong_tournament"],
            409: ["not_scheduled", "checkin_not_open", "checkin_closed"],
        },
    ),
)


def _embed_site(call: Call) -> EmbedSiteItem:
    data = call.data
    site = embeds.embed_site_add(
        organizer=organizer(call), slug=data["slug"], origin=data["origin"]
    )
    return selectors.embed_site_view(site)


ADD_EMBED_SITE = declare(
    "add_embed_site",
    "A league's organizer allows a site (its origin) to frame the standings widget.",
    _embed_site,
    result("embed_site", EmbedSiteItem, "The allowed site."),
    body=inputs.EmbedSiteInput,
    path=(SLUG,),
    status=CREATED,
    operation=strict(
        "Allow a site to frame the standings widget (league organizer)",
        "An origin (`https://club.example`), stored as a browser writes it; at most 20.",
        {400: ["bad_origin"], 403: WRITE, 409: ["embed_site_exists", "too_many_embed_sites"]},
    ),
)
REMOVE_EMBED_SITE = declare(
    "remove_embed_site",
    "A league's organizer stops a site framing the standings widget.",
    lambda call: embeds.embed_site_remove(
        organizer=organizer(call), slug=call.data["slug"], site_id=call.data["id"]
    ),
    DONE,
    path=(SLUG, SITE),
    **DELETING,
    operation=Operation(
        "Stop a site framing the standings widget (league organizer)",
        "Its origin leaves the widget's `frame-ancestors` at once.",
        {403: WRITE, 404: ["unknown_embed_site"]},
    ),
)

ACTIONS = (
    CREATE_LEAGUE,
    CREATE_SEASON,
    OPEN_SEASON_TOURNAMENT,
    HOST_SEASON_TOURNAMENT,
    JOIN_SEASON_TOURNAMENT,
    CREATE_MEMBER,
    CLAIM_MEMBER,
    CREATE_WEBHOOK,
    CORRECT_RESULT,
    RENAME_MEMBER,
    REMOVE_MEMBER,
    REISSUE_MEMBER_TOKEN,
    UPDATE_SEASON,
    DELETE_SEASON,
    CLOSE_SEASON,
    REOPEN_SEASON,
    DELETE_WEBHOOK,
    UPDATE_WEBHOOK,
    ROTATE_WEBHOOK_SECRET,
    PING_WEBHOOK,
    RETRY_DELIVERY,
    SCHEDULE_START,
    UNSCHEDULE_START,
    CHECK_IN,
    ADD_EMBED_SITE,
    REMOVE_EMBED_SITE,
)
