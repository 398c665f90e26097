"""Every league response, declared once (``apikit.shapes``).

The selectors return these, and REST renders them (``to_json``). The OpenAPI schema and the GraphQL
types are made from them.

Field order is REST's key order. ``rest=False`` marks a node's database id that only GraphQL sends.
REST names leagues by slug and members by handle. ``omit_none`` marks a key REST sends only when
set.
"""

from __future__ import annotations

import datetime
from typing import Any

from apikit.shapes import Shape, field, listing, made_in, shape
from leagues.enums import (
    ClosureAction,
    CorrectionKind,
    Criterion,
    DecidedBy,
    DeliveryKind,
    DeliveryStatus,
    LeagueMemberKind,
    MemberKind,
    NoShowPolicy,
    ScheduleOutcome,
    WebhookEvent,
)
from tournaments.enums import BasicSet, BotLevel, TournamentStatus, WinterMode
from tournaments.shapes import TITLE

KIND = "human or bot."


@shape("A league of the public list.")
class LeagueItem(Shape):
    id: int = field("The league's number.", rest=False, node_id=True)
    slug: str = field("Its address: /api/v1/leagues/{slug}/.")
    name: str = field("Its name.")
    description: str = field("What it is about.")
    public: bool = field("Listed (false: reached by its slug alone).")


@shape("The tournament options every tournament of a season uses.")
class SeasonOptions(Shape):
    basic_set: str = field("City or Rainbow.", enum=BasicSet)
    additional_sets: list[str] | None = field(
        "The five additional sets; null: drawn per tournament."
    )
    beach_cup: bool = field("Beach Cup rules.")
    winter_park: str = field("off, normal or all.", enum=WinterMode)
    robot_difficulty: int = field("1-5.")


@shape("An organizer closed or reopened a season's results.")
class ClosureView(Shape):
    action: str = field("close or reopen.", enum=ClosureAction)
    by: str | None = field("The organizer's user name (none: since deleted).")
    at: datetime.datetime = field("When.")
    reason: str = field("Why, in the organizer's words.")


@shape("A season: a run of tournaments with one scoring table.")
class SeasonView(Shape):
    id: int = field("Season id.", node_id=True)
    name: str = field("Its name.")
    starts_on: datetime.date | None = field("First day, if set.")
    ends_on: datetime.date | None = field("Last day, if set.")
    scoring: dict[str, Any] = field("Points by placement.")
    options: SeasonOptions = field("Its tournaments' options.")
    bots_allowed: bool = field("Bots may sit in its tournaments.")
    advice_allowed: bool = field("Seats may take the Robot's advice.")
    tournaments: int = field("Tournaments linked to it.")
    archived: bool = field("Archived: no tournament opens in it.")
    closed: bool = field("Its results are closed: nothing changes them until it is reopened.")
    closures: list[ClosureView] = field("Each close and reopen of its results, oldest first.")
    join_code: str | None = field(
        "The code that hosts a season tournament: the league's organizers only.",
        default=None,
        omit_none=True,
    )


@shape("A league with its seasons, newest first.")
class LeagueView(LeagueItem):
    seasons: list[SeasonView] = field("Its seasons, newest first.")
    members: int = field("How many members it has.")


@shape("A league rating (openskill): ordinal = mu - 3 sigma.")
class Skill(Shape):
    mu: float = field("Estimated skill.")
    sigma: float = field("Its uncertainty.")
    ordinal: float = field("The number ranked by: mu - 3 sigma.")


@shape("A rating after a tournament, and how much it moved.")
class SkillChange(Skill):
    change: float = field("The ordinal's change in that tournament.")


@shape("A correction of recorded results, as the audit trail shows it.")
class CorrectionView(Shape):
    id: int = field("Its id (the audit trail's order).", node_id=True)
    kind: str = field(
        "disqualify, manual_result, forfeit or no_show (a scheduled start's).", enum=CorrectionKind
    )
    reason: str = field("Why, in the organizer's words.")
    season: int = field("Season id.")
    tournament: int | None = field("Tournament id; none: the season.")
    member: str | None = field("The disqualified or forfeiting member's handle.")
    match: int | None = field("A forfeit: the match's id.")
    places: dict[str, int] = field("A manual result: handle → place.")
    created_at: datetime.datetime = field("When it was made.")


@shape("A member's row of a season's standings.")
class StandingRow(Shape):
    rank: int = field("1 = first; equal vectors share a rank.")
    member: str = field("The member's handle.")
    kind: str = field(KIND, enum=LeagueMemberKind)
    points: int = field("Season points.")
    wins: int = field("Tournaments won.")
    finals: int = field("Finals reached.")
    fans: int = field("Fans gained.")
    played: int = field("Tournaments played (fewer is better).")
    vector: list[int] = field("The tie-break vector, in `tiebreak` order.")
    decided_by: str | None = field(
        "The criterion that put it below the row above (tied, or null for the first).",
        enum=DecidedBy,
    )
    rating: Skill | None = field("The member's league rating, if any.")


@shape("A season's standings.")
class Standings(Shape):
    season: int = field("The season's id.")
    kind: str = field("Whose standings: all, human or bot members.", enum=MemberKind)
    tiebreak: list[str] = field("The criteria, in the order they count.", enum=Criterion)
    rows: list[StandingRow] = field("Best first, every correction applied.")
    corrections: list[CorrectionView] = field("The season's corrections, oldest first.")


@shape("A member's result in one season tournament.")
class HistoryRow(Shape):
    tournament: int = field("Tournament id.")
    title: str | None = field(TITLE)
    season: int = field("Season id.")
    place: int = field("Its place.")
    points: int = field("Season points it earned.")
    fans: int = field("Fans gained.")
    champion: bool = field("Won the tournament.")
    finalist: bool = field("Played the Final.")
    corrections: list[CorrectionView] = field(
        "The corrections that changed this tournament's result, oldest first.", page=False
    )
    rating: SkillChange | None = field(
        "The rating after it, if rated.", default=None, omit_none=True
    )


@shape("A member's history, tournament by tournament.")
class MemberHistory(Shape):
    id: int = field("The member's number.", rest=False, node_id=True)
    member: str = field("The member's handle.")
    kind: str = field(KIND, enum=LeagueMemberKind)
    rating: Skill | None = field("The league rating now, if any.")
    tournaments: list[HistoryRow] = field("Oldest first.")
    corrections: list[CorrectionView] = field(
        "Corrections that name it or its tournaments' results, oldest first."
    )


@shape("A member's result in a league tournament, by place.")
class ResultRow(Shape):
    place: int = field("Its place.")
    member: str = field("The member's handle.")
    kind: str = field(KIND, enum=LeagueMemberKind)
    seat: int = field("Its seat in the tournament.")
    points: int = field("Season points it earned.")
    fans: int = field("Fans gained.")
    champion: bool = field("Won the tournament.")
    finalist: bool = field("Played the Final.")
    rating: Skill | None = field("The rating after it (none until recorded).")


@shape("A match a forfeit gave to the other side (the match itself stays as played).")
class ForfeitedMatch(Shape):
    match: int = field("The match's id.")
    winner: int = field("The seat number that holds it now.")
    correction: int = field("The latest forfeit of it.")


@shape("A league tournament's results by place.")
class TournamentResults(Shape):
    tournament: int = field("Tournament id.")
    season: int = field("Season id.")
    recorded: bool = field("Recorded: its results count in the standings.")
    rows: list[ResultRow] = field("By place, every correction applied.")
    corrections: list[CorrectionView] = field(
        "The corrections that changed its result, oldest first."
    )
    forfeited: list[ForfeitedMatch] = field("Its matches that forfeits gave to the other side.")


@shape("A member's result in a line of a season's export.")
class LineResult(Shape):
    member: str = field("The member's handle.")
    seat: int = field("Its seat.")
    place: int = field("Its place.")
    points: int = field("Season points.")


@shape("A tournament line of a season's export.")
class TournamentLine(Shape):
    type: str = field("Always tournament.")
    id: int = field("Tournament id.")
    title: str | None = field(TITLE)
    status: str = field("Its status.", enum=TournamentStatus)
    recorded: bool = field("Recorded in the standings.")
    winners: list[int] = field(
        "Winning seat numbers (two on a shared win), every correction applied."
    )
    results: list[LineResult] = field("Its members' results.")
    corrections: list[CorrectionView] = field(
        "The corrections that changed its result, oldest first."
    )


@shape("A match line of a season's export (finished tournaments only).")
class MatchLine(Shape):
    type: str = field("Always match.")
    tournament: int = field("Tournament id.")
    id: int = field("Match id.")
    round: int = field("Its round.")
    park: str = field("Its park.")
    seats: list[int] = field("Its two seat numbers.")
    winner: int | None = field("The winning seat's number, a forfeit applied; none: a draw.")
    correction: int | None = field("The forfeit that gave it to `winner`; none: as played.")


@shape("A member as its league's organizers see it (no secret).")
class MemberItem(Shape):
    id: int = field("The member's number.", rest=False, node_id=True)
    member: str = field("Its handle.")
    kind: str = field(KIND, enum=LeagueMemberKind)
    bot_level: str | None = field("A bot's strength.", enum=BotLevel)
    claimed: bool = field("Its token is claimed.")
    created_at: datetime.datetime = field("When it was made.")


@shape("A new member and the code its player claims it with (once).")
class NewMember(Shape):
    member: str = field("The member's handle.")
    kind: str = field(KIND, enum=LeagueMemberKind)
    claim_code: str = field("Give it to the player: shown once.")


@shape("A claimed member and its token (shown once).")
class MemberToken(Shape):
    member: str = field("The member's handle.")
    token: str = field("Sit as this member with it: keep it secret.")


@shape("A webhook endpoint and the secret its deliveries are signed with.")
class Webhook(Shape):
    id: int = field("Endpoint id.", node_of="WebhookItem")
    url: str = field("Where deliveries are posted.")
    events: list[str] = field("Event kinds sent (empty: all).", enum=WebhookEvent)
    secret: str = field("The signing secret: shown once.")


@shape("A webhook endpoint without its secret.")
class WebhookItem(Shape):
    id: int = field("Endpoint id.", node_id=True)
    url: str = field("Where deliveries are posted.")
    events: list[str] = field("Event kinds sent (empty: all).", enum=WebhookEvent)
    active: bool = field("Whether it is sent to.")
    last_sequence: int = field("The last event's sequence number.")
    created_at: datetime.datetime = field("When it was made.")


@shape("One delivery of an event to an endpoint (the delivery log).")
class Delivery(Shape):
    id: int = field("Delivery id.", node_id=True)
    kind: str = field("The event kind.", enum=DeliveryKind)
    sequence: int = field("The event's number for its endpoint.")
    idempotency_key: str = field("The event's id.")
    status: str = field("pending, delivered or failed.", enum=DeliveryStatus)
    attempts: int = field("Attempts made, every resend's included.")
    last_status: int | None = field("The last answer's HTTP status.")
    last_error: str = field("The last attempt's error.")
    created_at: datetime.datetime = field("When it was logged.")
    last_attempt_at: datetime.datetime | None = field("Last attempt.")
    delivered_at: datetime.datetime | None = field("When delivered.")
    resent_at: datetime.datetime | None = field("When an organizer last sent it again.")


@shape("A webhook endpoint's new signing secret, shown once.")
class WebhookSecret(Shape):
    id: int = field("Endpoint id.", node_of="WebhookItem")
    secret: str = field("The new signing secret.")


@shape("Done: the thing asked for is gone.")
class Done(Shape):
    ok: bool = field("Always true.")


@shape("A league tournament's scheduled start, as the calendar shows it.")
class ScheduleView(Shape):
    tournament: int = field("Tournament id.")
    season: int = field("Season id.")
    status: str = field("The tournament's status.", enum=TournamentStatus)
    starts_at: datetime.datetime = field("When it starts by itself.")
    checkin_opens_at: datetime.datetime = field("When check-in opens.")
    checked_in: list[int] = field("Seats checked in (numbers from 1).")
    outcome: str | None = field("started, cancelled or skipped; none yet.", enum=ScheduleOutcome)
    reason: str = field("Why it was cancelled, or which seats bots played (no_show: bot).")
    no_show: str = field(
        "A player who did not check in: cancel, or bot (a bot takes the seat).", enum=NoShowPolicy
    )
    bot_level: str = field("The strength of a bot that takes a seat.", enum=BotLevel)


@shape("The calling seat's check-in for its tournament's scheduled start.")
class YourCheckIn(Shape):
    seat: int = field("The calling seat's number (from 1).")
    checked_in: bool = field("Whether it checked in.")


@shape("A tournament's scheduled start as its lobby reads it.")
class TournamentScheduleView(ScheduleView):
    league: str = field("The league's slug.")
    you: YourCheckIn | None = field("The calling seat of this tournament; none for anyone else.")


@shape("A seat's check-in.")
class CheckInView(Shape):
    seat: int = field("The seat's number (from 1).")
    checked_in_at: datetime.datetime = field("When it checked in.")


@shape("A site allowed to frame the league's standings widget (/leagues/{slug}/embed/).")
class EmbedSiteItem(Shape):
    id: int = field("Its id.")
    origin: str = field("The site's origin: scheme://host[:port].")
    created_at: datetime.datetime = field("When it was allowed.")


# The answers of the list endpoints: ``{"results": [...]}`` (GraphQL pages them as connections).
LeagueList = listing(LeagueItem, "LeagueList", "Public leagues.")
MemberList = listing(MemberItem, "MemberList", "A league's members.")
WebhookList = listing(WebhookItem, "WebhookList", "A league's webhook endpoints.")
DeliveryList = listing(Delivery, "DeliveryList", "An endpoint's newest deliveries first.")
CorrectionList = listing(CorrectionView, "CorrectionList", "A league's corrections, oldest first.")
Calendar = listing(ScheduleView, "Calendar", "A league's scheduled tournaments by start time.")
EmbedSiteList = listing(EmbedSiteItem, "EmbedSiteList", "The sites that may frame the widget.")

# Rows of one model each: their GraphQL types are the models' (strawberry-django's).
made_in("leagues.graphql.types", LeagueItem, MemberItem, CorrectionView, WebhookItem, Delivery)
