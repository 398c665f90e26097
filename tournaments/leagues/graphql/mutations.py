"""League mutations: what the REST league endpoints offer, over the same services.

Each validates its input with the serializer its REST view uses (``tournaments.leagues.api.inputs``:
the same ``invalid`` details), calls the same service, and answers the REST body as an object, or
``Error`` with REST's ``code``, ``message`` and ``details``. A refusal changes nothing. The
mutations whose REST views are throttled take the same scope's budget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from rest_framework import serializers
from strawberry.scalars import JSON

from config.errors import ApplicationError
from config.graphql import Error
from config.throttling import CreateThrottle, JoinThrottle, ScopeThrottle
from tournaments.graphql.mutations import TicketPayload, throttle, valid
from tournaments.graphql.types import Ticket
from tournaments.leagues import selectors, services
from tournaments.leagues.api import inputs
from tournaments.leagues.graphql.queries import Slug, caller_organizer
from tournaments.leagues.graphql.types import LeagueView, MemberToken, NewMember, SeasonView
from tournaments.services.lobby import SeatTicket

LeaguePayload = Annotated[
    LeagueView | Error, strawberry.union("LeaguePayload", description="The league, or why not.")
]
SeasonPayload = Annotated[
    SeasonView | Error, strawberry.union("SeasonPayload", description="The season, or why not.")
]
NewMemberPayload = Annotated[
    NewMember | Error,
    strawberry.union("NewMemberPayload", description="The member and its claim code, or why not."),
]
MemberTokenPayload = Annotated[
    MemberToken | Error,
    strawberry.union("MemberTokenPayload", description="The member's token, or why not."),
]


@strawberry.type(description="A webhook endpoint and the secret its deliveries are signed with.")
class Webhook:
    id: int = strawberry.field(description="Endpoint id.")
    url: str = strawberry.field(description="Where deliveries are posted.")
    events: list[str] = strawberry.field(description="Event kinds sent (empty: all).")
    secret: str = strawberry.field(description="The signing secret: shown once.")


WebhookPayload = Annotated[
    Webhook | Error, strawberry.union("WebhookPayload", description="The endpoint, or why not.")
]

# A season tournament's arguments (REST's ``SeasonTournamentInput``): an option left out takes
# the season's, one that differs is refused (``season_options``).
Seats = Annotated[int, strawberry.argument(description="Seats, 1-8.")]
BasicSet = Annotated[str | None, strawberry.argument(description="City or Rainbow.")]
Sets = Annotated[list[str] | None, strawberry.argument(description="The five additional sets.")]
BeachCup = Annotated[bool | None, strawberry.argument(description="Beach Cup rules.")]
Winter = Annotated[str | None, strawberry.argument(description="off, normal or all.")]
Robot = Annotated[int | None, strawberry.argument(description="Robot difficulty, 1-5.")]
DeckDeadline = Annotated[
    int | None, strawberry.argument(description="Deck Phase clock, 5-86400 s.")
]
AnswerDeadline = Annotated[
    int | None, strawberry.argument(description="Time to answer, 1-3600 s (30).")
]


def refusable(
    run: Callable[[], Any], info: strawberry.Info, scope: type[ScopeThrottle] | None
) -> Any:
    """``run()``, or the ``Error`` REST would answer; throttled only as its REST view is."""
    try:
        if scope is not None:
            throttle(info, scope)
        return run()
    except (ApplicationError, serializers.ValidationError) as error:
        return Error.of(error)


def _ticket(ticket: SeatTicket) -> Ticket:
    return Ticket(
        id=ticket.tournament.pk,
        code=ticket.tournament.code,
        seat=ticket.seat.number,
        token=ticket.token,
    )


def _season_tournament(info: strawberry.Info, body: dict[str, Any]) -> Ticket:
    data = valid(inputs.SeasonTournamentInput, body)
    services.require_season_in(body["slug"], body["season_id"])
    tournament = services.season_tournament_organize(
        organizer=caller_organizer(info),
        season_id=body["season_id"],
        seat_count=data["seats"],
        deck_deadline_seconds=data["deck_deadline_seconds"],
        answer_deadline_seconds=data["answer_deadline_seconds"],
        **inputs.tournament_options(data),
    )
    return Ticket(id=tournament.pk, code=tournament.code, seat=None, token=None)


def _hosted(body: dict[str, Any]) -> Ticket:
    data = valid(inputs.HostTournamentInput, body)
    ticket = services.season_tournament_host(
        join_code=data["join_code"],
        host_name=data["name"],
        member_token=data.get("member_token"),
        seat_count=data["seats"],
        deck_deadline_seconds=data["deck_deadline_seconds"],
        answer_deadline_seconds=data["answer_deadline_seconds"],
        **inputs.tournament_options(data),
    )
    return _ticket(ticket)


def _season(info: strawberry.Info, slug: str, body: dict[str, Any]) -> SeasonView:
    data = valid(inputs.SeasonInput, body)
    scoring = data.pop("scoring", None)
    season = services.season_create(
        organizer=caller_organizer(info),
        slug=slug,
        name=data["name"],
        starts_on=data["starts_on"],
        ends_on=data["ends_on"],
        scoring=dict(scoring) if scoring else None,
        bots_allowed=data["bots_allowed"],
        advice_allowed=data["advice_allowed"],
        **inputs.tournament_options(data),
    )
    return SeasonView.of(selectors.season_view(season, organizer=True))


def _body(values: dict[str, Any]) -> dict[str, Any]:
    """A resolver's arguments as REST's body (``locals()`` less ``self`` and ``info``)."""
    return {k: v for k, v in values.items() if k not in ("self", "info")}


@strawberry.type
class Mutation:
    @strawberry.mutation(description="An organizer creates a league (and organizes it).")
    def create_league(
        self,
        info: strawberry.Info,
        name: Annotated[str, strawberry.argument(description="Its name.")],
        slug: Annotated[str, strawberry.argument(description="Its address (a slug).")],
        description: Annotated[str | None, strawberry.argument(description="About it.")] = None,
        public: Annotated[bool | None, strawberry.argument(description="False: unlisted.")] = None,
    ) -> LeaguePayload:
        body = _body(locals())

        def run() -> LeagueView:
            data = valid(inputs.LeagueInput, body)
            league = services.league_create(organizer=caller_organizer(info), **data)
            return LeagueView.of(selectors.league_view(league.slug, None))

        result: LeagueView | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A league's organizer adds a season.")
    def create_season(
        self,
        info: strawberry.Info,
        slug: Slug,
        name: Annotated[str, strawberry.argument(description="Its name.")],
        starts_on: Annotated[str | None, strawberry.argument(description="YYYY-MM-DD.")] = None,
        ends_on: Annotated[str | None, strawberry.argument(description="YYYY-MM-DD.")] = None,
        scoring: Annotated[
            JSON | None,
            strawberry.argument(description="{champion, finalist, by_fans_rank, played}."),
        ] = None,
        basic_set: BasicSet = None,
        additional_sets: Annotated[
            list[str] | None,
            strawberry.argument(description="Five sets for every tournament; none: drawn each."),
        ] = None,
        beach_cup: BeachCup = None,
        winter_park: Winter = None,
        robot_difficulty: Robot = None,
        bots_allowed: Annotated[bool | None, strawberry.argument(description="(true)")] = None,
        advice_allowed: Annotated[bool | None, strawberry.argument(description="(false)")] = None,
    ) -> SeasonPayload:
        body = _body(locals())
        del body["slug"]
        result: SeasonView | Error = refusable(lambda: _season(info, slug, body), info, None)
        return result

    @strawberry.mutation(description="A league's organizer opens a season tournament (no seat).")
    def open_season_tournament(
        self,
        info: strawberry.Info,
        slug: Slug,
        season_id: Annotated[int, strawberry.argument(description="The season's id.")],
        seats: Seats,
        basic_set: BasicSet = None,
        additional_sets: Sets = None,
        beach_cup: BeachCup = None,
        winter_park: Winter = None,
        robot_difficulty: Robot = None,
        deck_deadline_seconds: DeckDeadline = None,
        answer_deadline_seconds: AnswerDeadline = None,
    ) -> TicketPayload:
        body = _body(locals())
        run = lambda: _season_tournament(info, body)  # noqa: E731
        result: Ticket | Error = refusable(run, info, CreateThrottle)
        return result

    @strawberry.mutation(
        description="Host a season tournament with the season's join code (as a member with "
        "its token)."
    )
    def host_season_tournament(
        self,
        info: strawberry.Info,
        join_code: Annotated[str, strawberry.argument(description="The season's join code.")],
        name: Annotated[str, strawberry.argument(description="The host's name.")],
        seats: Seats,
        member_token: Annotated[
            str | None, strawberry.argument(description="Sit as this league member.")
        ] = None,
        basic_set: BasicSet = None,
        additional_sets: Sets = None,
        beach_cup: BeachCup = None,
        winter_park: Winter = None,
        robot_difficulty: Robot = None,
        deck_deadline_seconds: DeckDeadline = None,
        answer_deadline_seconds: AnswerDeadline = None,
    ) -> TicketPayload:
        body = _body(locals())
        result: Ticket | Error = refusable(lambda: _hosted(body), info, CreateThrottle)
        return result

    @strawberry.mutation(description="Join a season tournament's lobby as a league member.")
    def join_season_tournament(
        self,
        info: strawberry.Info,
        code: Annotated[str, strawberry.argument(description="The tournament's room code.")],
        member_token: Annotated[str, strawberry.argument(description="The member's token.")],
        name: Annotated[
            str | None, strawberry.argument(description="Seat name; default: the handle.")
        ] = None,
    ) -> TicketPayload:
        body = _body(locals())

        def run() -> Ticket:
            data = valid(inputs.MemberJoinInput, body)
            ticket = services.league_seat_join(
                code=data["code"], name=data.get("name"), member_token=data["member_token"]
            )
            return _ticket(ticket)

        result: Ticket | Error = refusable(run, info, JoinThrottle)
        return result

    @strawberry.mutation(description="A league's organizer adds a member (and its claim code).")
    def create_member(
        self,
        info: strawberry.Info,
        slug: Slug,
        handle: Annotated[str, strawberry.argument(description="The member's handle.")],
    ) -> NewMemberPayload:
        def run() -> NewMember:
            data = valid(inputs.MemberInput, {"handle": handle})
            member, claim = services.member_create(
                organizer=caller_organizer(info), slug=slug, handle=data["handle"]
            )
            return NewMember(member=member.handle, kind=member.kind, claim_code=claim)

        result: NewMember | Error = refusable(run, info, None)
        return result

    @strawberry.mutation(description="A player claims a member with its claim code (once).")
    def claim_member(
        self,
        info: strawberry.Info,
        slug: Slug,
        claim_code: Annotated[str, strawberry.argument(description="The claim code.")],
    ) -> MemberTokenPayload:
        def run() -> MemberToken:
            data = valid(inputs.ClaimInput, {"claim_code": claim_code})
            member, token = services.member_claim(slug=slug, claim_code=data["claim_code"])
            return MemberToken(member=member.handle, token=token)

        result: MemberToken | Error = refusable(run, info, JoinThrottle)
        return result

    @strawberry.mutation(description="A league's organizer adds a signed webhook endpoint.")
    def create_webhook(
        self,
        info: strawberry.Info,
        slug: Slug,
        url: Annotated[str, strawberry.argument(description="Where to post deliveries.")],
        events: Annotated[
            list[str] | None, strawberry.argument(description="Event kinds; none: all.")
        ] = None,
    ) -> WebhookPayload:
        def run() -> Webhook:
            data = valid(inputs.WebhookInput, {"url": url, "events": events})
            endpoint, secret = services.webhook_create(
                organizer=caller_organizer(info), slug=slug, **data
            )
            return Webhook(id=endpoint.pk, url=endpoint.url, events=endpoint.events, secret=secret)

        result: Webhook | Error = refusable(run, info, None)
        return result
