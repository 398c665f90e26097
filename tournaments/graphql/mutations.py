"""Every action of the REST contract as a mutation.

Each one validates its input with the serializer its REST view uses (``tournaments.api.inputs``:
the same ``invalid`` details), calls the same service, and answers like the view: the changed
object, or ``Error`` with REST's ``code``, ``message`` and ``details``. A refusal changes nothing:
the services refuse before they write.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from django.utils.translation import gettext as _
from rest_framework import serializers
from strawberry.scalars import JSON

from config.errors import ApplicationError
from config.graphql import Error, context_value
from config.throttling import ActionThrottle, CreateThrottle, JoinThrottle, ScopeThrottle
from matches.observer import SPECTATOR
from tournaments.api import inputs
from tournaments.graphql.arguments import MatchId, TournamentId, Uids
from tournaments.graphql.queries import (
    MatchView,
    caller_actor,
    caller_seat,
    match_of,
    tournament_of,
)
from tournaments.graphql.types import Ticket, TournamentView
from tournaments.selectors.tournaments import tournament_view_of
from tournaments.selectors.viewers import Organizer
from tournaments.services import deck, lobby, start
from tournaments.services.matchplay import match_answer

TournamentPayload = Annotated[
    TournamentView | Error,
    strawberry.union("TournamentPayload", description="The tournament as you see it, or why not."),
]
TicketPayload = Annotated[
    Ticket | Error, strawberry.union("TicketPayload", description="Your ticket, or why not.")
]
MatchPayload = Annotated[
    MatchView | Error, strawberry.union("MatchPayload", description="The match, or why not.")
]

# The GraphQL name of each Deck Phase action and its REST route (``views.DECK_ACTIONS``).
DECK_MUTATIONS = {
    "choose": "draft/choose",
    "draw": "draft/draw",
    "redraw": "draft/redraw",
    "pick": "draft/pick",
    "resolve": "draft/resolve",
    "remove": "deck/remove",
    "finish": "deck/finish",
}


def valid(serializer_class: type[serializers.Serializer], data: dict[str, Any]) -> dict[str, Any]:
    """``data`` checked by REST's serializer (``None`` means "not sent", as a missing field)."""
    serializer = serializer_class(data={k: v for k, v in data.items() if v is not None})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def refusable(
    run: Callable[[], Any], info: strawberry.Info, scope: type[ScopeThrottle] = ActionThrottle
) -> Any:
    """``run()``, or the ``Error`` REST would answer with; throttled as the REST view of the
    same action is (the same scope and counts per client address: one budget for both)."""
    try:
        throttle(info, scope)
        return run()
    except (ApplicationError, serializers.ValidationError) as error:
        return Error.of(error)


def _acted(info: strawberry.Info, tournament_id: TournamentId, act: Callable[[], Any]) -> Any:
    def run() -> TournamentView:
        act()
        return tournament_of(info, tournament_id)

    return refusable(run, info)


def throttle(info: strawberry.Info, scope: type[ScopeThrottle]) -> None:
    """REST's ``throttled`` (``details.retry_after`` in seconds) past the scope's rate."""
    request = context_value(info.context, "request")  # on the socket: its consumer
    limiter = scope()
    if request is None or limiter.allow_request(request, None):  # type: ignore[arg-type]
        return
    wait = limiter.wait()
    seconds = math.ceil(wait) if wait is not None else None
    message = _("Too many requests: try again later.")
    raise ApplicationError("throttled", message, {"retry_after": seconds})


def _seat_act(
    info: strawberry.Info, tournament_id: TournamentId, action: str, body: dict[str, Any]
) -> TournamentView | Error:
    serializer = {
        "choose": inputs.ChooseInput,
        "pick": inputs.PickInput,
        "resolve": inputs.CardsInput,
        "remove": inputs.CardsInput,
    }.get(action, inputs.VersionedInput)

    def act() -> None:
        data = valid(serializer, body)
        version = data.pop("version", None)
        deck.seat_act(
            tournament_id=tournament_id,
            seat=caller_seat(info),
            action=action,
            expected_version=version,
            **data,
        )

    result: TournamentView | Error = _acted(info, tournament_id, act)
    return result


VERSION = "Your `you.version`: refused as `stale` if your own situation changed since."


@strawberry.type
class Mutation:
    @strawberry.mutation(
        description="Open a tournament: you take seat 0 as its host (an organizer takes none)."
    )
    def create_tournament(
        self,
        info: strawberry.Info,
        seats: Annotated[int, strawberry.argument(description="Seats, 1-8.")],
        name: Annotated[
            str | None, strawberry.argument(description="Your name (none for an organizer).")
        ] = None,
        basic_set: Annotated[
            str | None, strawberry.argument(description="City or Rainbow.")
        ] = None,
        additional_sets: Annotated[
            list[str] | None, strawberry.argument(description="Exactly five (default: random).")
        ] = None,
        beach_cup: Annotated[
            bool | None, strawberry.argument(description="Beach Cup rules.")
        ] = None,
        box: Annotated[
            str | None,
            strawberry.argument(
                description="A whole box (beach_cup or base): its basic set, draft rules and "
                "five random sets of it; not with basicSet or beachCup."
            ),
        ] = None,
        winter_park: Annotated[
            str | None, strawberry.argument(description="off, normal or all.")
        ] = None,
        robot_difficulty: Annotated[int | None, strawberry.argument(description="1-5.")] = None,
        solo_challenge: Annotated[
            bool | None, strawberry.argument(description="The Robot's solo challenge.")
        ] = None,
        deck_deadline_seconds: Annotated[
            int | None, strawberry.argument(description="Deck Phase clock, 5-86400 s.")
        ] = None,
        answer_deadline_seconds: Annotated[
            int | None, strawberry.argument(description="Time to answer, 1-3600 s (30).")
        ] = None,
        seed: Annotated[
            str | None,
            strawberry.argument(description="A decimal seed (repeatable games, when trusted)."),
        ] = None,
    ) -> TicketPayload:
        body = dict(locals())
        del body["self"], body["info"]

        def run() -> Ticket:
            data = valid(inputs.CreateInput, body)
            options = inputs.create_options(data)
            by = caller_actor(info)
            if isinstance(by, Organizer):  # an organizer takes no seat: every seat is open
                opened = lobby.tournament_organize(organizer=by, **options)
                return Ticket(id=opened.pk, code=opened.code, seat=None, token=None)
            if not data.get("name"):
                raise serializers.ValidationError({"name": [_("This field is required.")]})
            ticket = lobby.tournament_create(host_name=data["name"], **options)
            number = ticket.seat.number
            return Ticket(
                id=ticket.tournament.pk,
                code=ticket.tournament.code,
                seat=number,
                token=ticket.token,
            )

        result: Ticket | Error = refusable(run, info, CreateThrottle)
        return result

    @strawberry.mutation(description="Take the lowest open seat of a lobby by its room code.")
    def join_tournament(
        self,
        info: strawberry.Info,
        code: Annotated[str, strawberry.argument(description="The room code.")],
        name: Annotated[str, strawberry.argument(description="Your name.")],
    ) -> TicketPayload:
        def run() -> Ticket:
            data = valid(inputs.JoinInput, {"code": code, "name": name})
            ticket = lobby.seat_join(code=data["code"], name=data["name"])
            number = ticket.seat.number
            return Ticket(
                id=ticket.tournament.pk,
                code=ticket.tournament.code,
                seat=number,
                token=ticket.token,
            )

        result: Ticket | Error = refusable(run, info, JoinThrottle)
        return result

    @strawberry.mutation(description="The host (or organizer) fills free seats with bots.")
    def add_bots(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        count: Annotated[int, strawberry.argument(description="Bots to seat, 1-7.")],
        level: Annotated[
            str, strawberry.argument(description="rookie (the default), steady or champion.")
        ] = "rookie",
    ) -> TournamentPayload:
        def act() -> None:
            data = valid(inputs.BotsInput, {"count": count, "level": level})
            lobby.seat_add_bots(
                tournament_id=tournament_id,
                seat=caller_actor(info),
                count=data["count"],
                level=data["level"],
            )

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(description="The host (or organizer) starts a full lobby.")
    def start_tournament(
        self, info: strawberry.Info, tournament_id: TournamentId
    ) -> TournamentPayload:
        def act() -> None:
            start.tournament_start(tournament_id=tournament_id, seat=caller_actor(info))

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(
        description="Take back your dropped seat (played by a bot since you left or missed two "
        "deadlines in a row)."
    )
    def reclaim_seat(self, info: strawberry.Info, tournament_id: TournamentId) -> TournamentPayload:
        def act() -> None:
            lobby.seat_reclaim(tournament_id=tournament_id, seat=caller_seat(info))

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(
        description="Leave a lobby (not the host): your token stops working. In a running "
        "tournament your seat is dropped to a bot until you reclaim it."
    )
    def leave_tournament(
        self, info: strawberry.Info, tournament_id: TournamentId
    ) -> TournamentPayload:
        def run() -> TournamentView:
            lobby.seat_leave(tournament_id=tournament_id, seat=caller_seat(info))
            return TournamentView.of(
                tournament_view_of(tournament_id=tournament_id, viewer=SPECTATOR)
            )

        result: TournamentView | Error = refusable(run, info)
        return result

    @strawberry.mutation(description="The host removes a seat (a player or a bot) from a lobby.")
    def kick_seat(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        seat: Annotated[int, strawberry.argument(description="The seat to remove.")],
    ) -> TournamentPayload:
        def act() -> None:
            data = valid(inputs.KickInput, {"seat": seat})
            lobby.seat_kick(
                tournament_id=tournament_id, seat=caller_actor(info), number=data["seat"]
            )

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(description="The host (or organizer) cancels the tournament.")
    def cancel_tournament(
        self, info: strawberry.Info, tournament_id: TournamentId
    ) -> TournamentPayload:
        def act() -> None:
            lobby.tournament_cancel(tournament_id=tournament_id, seat=caller_actor(info))

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(description="Your seat's settings: answer your cards' questions live.")
    def seat_settings(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        answers_live: Annotated[
            bool, strawberry.argument(description="Answer questions yourself.")
        ],
    ) -> TournamentPayload:
        def act() -> None:
            lobby.seat_settings(
                tournament_id=tournament_id, seat=caller_seat(info), answers_live=answers_live
            )

        result: TournamentView | Error = _acted(info, tournament_id, act)
        return result

    @strawberry.mutation(description="Deck Phase: choose the round's draft option (its index).")
    def choose(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        option: Annotated[int, strawberry.argument(description="Index into the round's options.")],
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "choose", {"option": option, "version": version})

    @strawberry.mutation(description="Deck Phase: draw your display.")
    def draw(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "draw", {"version": version})

    @strawberry.mutation(description="Deck Phase: redraw your display (once per Deck Phase).")
    def redraw(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "redraw", {"version": version})

    @strawberry.mutation(description="Deck Phase: pick a card of your display (its uid).")
    def pick(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        card: Annotated[int, strawberry.argument(description="A uid of your display.")],
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "pick", {"card": card, "version": version})

    @strawberry.mutation(description="Deck Phase: resolve the picked card's pending effect.")
    def resolve(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        cards: Uids,
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "resolve", {"cards": cards, "version": version})

    @strawberry.mutation(description="Deck Phase: remove cards from your deck.")
    def remove(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        cards: Uids,
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "remove", {"cards": cards, "version": version})

    @strawberry.mutation(description="Deck Phase: finish your Deck Phase.")
    def finish(
        self,
        info: strawberry.Info,
        tournament_id: TournamentId,
        version: Annotated[int | None, strawberry.argument(description=VERSION)] = None,
    ) -> TournamentPayload:
        return _seat_act(info, tournament_id, "finish", {"version": version})

    @strawberry.mutation(description="Answer your match's pending question.")
    def answer(
        self,
        info: strawberry.Info,
        match_id: MatchId,
        question: Annotated[int, strawberry.argument(description="The pending question's seq.")],
        answer: Annotated[
            JSON, strawberry.argument(description="The chosen options (uids, seats, words).")
        ],
    ) -> MatchPayload:
        def run() -> MatchView:
            data = valid(inputs.AnswerInput, {"question": question, "answer": answer})
            match_answer(
                match_id=match_id,
                seat=caller_seat(info),
                question=data["question"],
                answer=data["answer"],
            )
            return match_of(info, match_id)

        result: MatchView | Error = refusable(run, info)
        return result
