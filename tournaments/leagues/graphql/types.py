"""The league objects of GraphQL: the selectors' dictionaries (REST's bodies) in camelCase."""

from __future__ import annotations

import datetime
from typing import Any

import strawberry
from strawberry.scalars import JSON

from tournaments.enums import TournamentStatus


@strawberry.type(description="A league of the public list.")
class LeagueItem:
    slug: str = strawberry.field(description="Its address: /api/v1/leagues/{slug}/.")
    name: str = strawberry.field(description="Its name.")
    description: str = strawberry.field(description="What it is about.")
    public: bool = strawberry.field(description="Listed (false: reached by its slug alone).")


@strawberry.type(description="The tournament options every tournament of a season uses.")
class SeasonOptions:
    basic_set: str = strawberry.field(description="City or Rainbow.")
    additional_sets: list[str] | None = strawberry.field(
        description="The five additional sets; null: drawn per tournament."
    )
    beach_cup: bool = strawberry.field(description="Beach Cup rules.")
    winter_park: str = strawberry.field(description="off, normal or all.")
    robot_difficulty: int = strawberry.field(description="1-5.")


@strawberry.type(description="A season: a run of tournaments with one scoring table.")
class SeasonView:
    id: int = strawberry.field(description="Season id.")
    name: str = strawberry.field(description="Its name.")
    starts_on: datetime.date | None = strawberry.field(description="First day, if set.")
    ends_on: datetime.date | None = strawberry.field(description="Last day, if set.")
    scoring: JSON = strawberry.field(description="Points by placement (REST's `scoring`).")
    options: SeasonOptions = strawberry.field(description="Its tournaments' options.")
    bots_allowed: bool = strawberry.field(description="Bots may sit in its tournaments.")
    advice_allowed: bool = strawberry.field(description="Seats may take the Robot's advice.")
    tournaments: int = strawberry.field(description="Tournaments linked to it.")
    archived: bool = strawberry.field(description="Archived: no tournament opens in it.")
    join_code: str | None = strawberry.field(
        description="The code that hosts a season tournament: the league's organizers only."
    )

    @classmethod
    def of(cls, data: dict[str, Any]) -> SeasonView:
        return cls(
            **{k: v for k, v in data.items() if k not in ("options", "join_code")},
            options=SeasonOptions(**data["options"]),
            join_code=data.get("join_code"),
        )


@strawberry.type(description="A league with its seasons, newest first.")
class LeagueView(LeagueItem):
    seasons: list[SeasonView] = strawberry.field(description="Its seasons, newest first.")
    members: int = strawberry.field(description="How many members it has.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> LeagueView:
        seasons = [SeasonView.of(season) for season in data["seasons"]]
        return cls(**{**data, "seasons": seasons})


@strawberry.type(description="A league rating (openskill): ordinal = mu - 3 sigma.")
class Skill:
    mu: float = strawberry.field(description="Estimated skill.")
    sigma: float = strawberry.field(description="Its uncertainty.")
    ordinal: float = strawberry.field(description="The number ranked by: mu - 3 sigma.")


@strawberry.type(description="A rating after a tournament, and how much it moved.")
class SkillChange(Skill):
    change: float = strawberry.field(description="The ordinal's change in that tournament.")


@strawberry.type(description="A member's row of a season's standings.")
class StandingRow:
    rank: int = strawberry.field(description="1 = first; equal vectors share a rank.")
    member: str = strawberry.field(description="The member's handle.")
    kind: str = strawberry.field(description="human or bot.")
    points: int = strawberry.field(description="Season points.")
    wins: int = strawberry.field(description="Tournaments won.")
    finals: int = strawberry.field(description="Finals reached.")
    fans: int = strawberry.field(description="Fans gained.")
    played: int = strawberry.field(description="Tournaments played (fewer is better).")
    vector: list[int] = strawberry.field(description="The tie-break vector, in `tiebreak` order.")
    decided_by: str | None = strawberry.field(
        description="The criterion that put it below the row above (tied, or null for the first)."
    )
    rating: Skill | None = strawberry.field(description="The member's league rating, if any.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> StandingRow:
        rating = data["rating"]
        return cls(**{**data, "rating": None if rating is None else Skill(**rating)})


@strawberry.type(description="A season's standings (REST's standings body).")
class Standings:
    season: int = strawberry.field(description="The season's id.")
    kind: str = strawberry.field(description="Whose standings: all, human or bot members.")
    tiebreak: list[str] = strawberry.field(description="The criteria, in the order they count.")
    rows: list[StandingRow] = strawberry.field(description="Best first.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> Standings:
        rows = [StandingRow.of(row) for row in data["rows"]]
        return cls(season=data["season"], kind=data["kind"], tiebreak=data["tiebreak"], rows=rows)


@strawberry.type(description="A member's result in one season tournament.")
class HistoryRow:
    tournament: int = strawberry.field(description="Tournament id.")
    season: int = strawberry.field(description="Season id.")
    place: int = strawberry.field(description="Its place.")
    points: int = strawberry.field(description="Season points it earned.")
    fans: int = strawberry.field(description="Fans gained.")
    champion: bool = strawberry.field(description="Won the tournament.")
    finalist: bool = strawberry.field(description="Played the Final.")
    rating: SkillChange | None = strawberry.field(description="The rating after it, if rated.")

    @classmethod
    def of(cls, data: dict[str, Any]) -> HistoryRow:
        rating = data.get("rating")
        return cls(**{**data, "rating": None if rating is None else SkillChange(**rating)})


@strawberry.type(description="A member's history, tournament by tournament.")
class MemberHistory:
    member: str = strawberry.field(description="The member's handle.")
    kind: str = strawberry.field(description="human or bot.")
    rating: Skill | None = strawberry.field(description="The league rating now, if any.")
    tournaments: list[HistoryRow] = strawberry.field(description="Oldest first.")
    corrections: list[CorrectionView] = strawberry.field(
        description="Corrections that name it or its tournaments' results, oldest first."
    )

    @classmethod
    def of(cls, data: dict[str, Any]) -> MemberHistory:
        rating = data["rating"]
        return cls(
            member=data["member"],
            kind=data["kind"],
            rating=None if rating is None else Skill(**rating),
            tournaments=[HistoryRow.of(row) for row in data["tournaments"]],
            corrections=[CorrectionView(**c) for c in data["corrections"]],
        )


@strawberry.type(description="A correction of recorded results, as the audit trail shows it.")
class CorrectionView:
    id: int = strawberry.field(description="Its id (the audit trail's order).")
    kind: str = strawberry.field(
        description="disqualify, manual_result, forfeit or no_show (a scheduled start's)."
    )
    reason: str = strawberry.field(description="Why, in the organizer's words.")
    season: int = strawberry.field(description="Season id.")
    tournament: int | None = strawberry.field(description="Tournament id; none: the season.")
    member: str | None = strawberry.field(
        description="The disqualified or forfeiting member's handle."
    )
    match: int | None = strawberry.field(description="A forfeit: the match's id.")
    places: JSON = strawberry.field(description="A manual result: handle → place.")
    created_at: datetime.datetime = strawberry.field(description="When it was made.")


@strawberry.type(description="A new member and the code its player claims it with (once).")
class NewMember:
    member: str = strawberry.field(description="The member's handle.")
    kind: str = strawberry.field(description="human or bot.")
    claim_code: str = strawberry.field(description="Give it to the player: shown once.")


@strawberry.type(description="A claimed member and its token (shown once).")
class MemberToken:
    member: str = strawberry.field(description="The member's handle.")
    token: str = strawberry.field(description="Sit as this member with it: keep it secret.")


@strawberry.type(description="A webhook endpoint and the secret its deliveries are signed with.")
class Webhook:
    id: int = strawberry.field(description="Endpoint id.")
    url: str = strawberry.field(description="Where deliveries are posted.")
    events: list[str] = strawberry.field(description="Event kinds sent (empty: all).")
    secret: str = strawberry.field(description="The signing secret: shown once.")


@strawberry.type(description="A member as its league's organizers see it (no secret).")
class MemberItem:
    member: str = strawberry.field(description="Its handle.")
    kind: str = strawberry.field(description="human or bot.")
    bot_level: str | None = strawberry.field(description="A bot's strength.")
    claimed: bool = strawberry.field(description="Its token is claimed.")
    created_at: datetime.datetime = strawberry.field(description="When it was made.")


@strawberry.type(description="A webhook endpoint without its secret.")
class WebhookItem:
    id: int = strawberry.field(description="Endpoint id.")
    url: str = strawberry.field(description="Where deliveries are posted.")
    events: list[str] = strawberry.field(description="Event kinds sent (empty: all).")
    active: bool = strawberry.field(description="Whether it is sent to.")
    last_sequence: int = strawberry.field(description="The last event's sequence number.")
    created_at: datetime.datetime = strawberry.field(description="When it was made.")


@strawberry.type(description="One delivery of an event to an endpoint (the delivery log).")
class Delivery:
    id: int = strawberry.field(description="Delivery id.")
    kind: str = strawberry.field(description="The event kind.")
    sequence: int = strawberry.field(description="The event's number for its endpoint.")
    idempotency_key: str = strawberry.field(description="The event's id.")
    status: str = strawberry.field(description="pending, delivered or failed.")
    attempts: int = strawberry.field(description="Attempts made.")
    last_status: int | None = strawberry.field(description="The last answer's HTTP status.")
    last_error: str = strawberry.field(description="The last attempt's error.")
    created_at: datetime.datetime = strawberry.field(description="When it was logged.")
    last_attempt_at: datetime.datetime | None = strawberry.field(description="Last attempt.")
    delivered_at: datetime.datetime | None = strawberry.field(description="When delivered.")


@strawberry.type(description="A webhook endpoint's new signing secret, shown once.")
class WebhookSecret:
    id: int = strawberry.field(description="Endpoint id.")
    secret: str = strawberry.field(description="The new signing secret.")


@strawberry.type(description="Done: the thing asked for is gone.")
class Done:
    ok: bool = strawberry.field(description="Always true.")


@strawberry.type(description="A league tournament's scheduled start, as the calendar shows it.")
class ScheduleView:
    tournament: int = strawberry.field(description="Tournament id.")
    season: int = strawberry.field(description="Season id.")
    status: TournamentStatus = strawberry.field(description="The tournament's status.")
    starts_at: datetime.datetime = strawberry.field(description="When it starts by itself.")
    checkin_opens_at: datetime.datetime = strawberry.field(description="When check-in opens.")
    checked_in: list[int] = strawberry.field(description="Seats checked in (numbers from 1).")
    outcome: str | None = strawberry.field(description="started, cancelled or skipped; none yet.")
    reason: str = strawberry.field(
        description="Why it was cancelled, or which seats bots played (no_show: bot)."
    )
    no_show: str = strawberry.field(
        description="A player who did not check in: cancel, or bot (a bot takes the seat)."
    )
    bot_level: str = strawberry.field(description="The strength of a bot that takes a seat.")


@strawberry.type(description="A seat's check-in.")
class CheckInView:
    seat: int = strawberry.field(description="The seat's number (from 1).")
    checked_in_at: datetime.datetime = strawberry.field(description="When it checked in.")
