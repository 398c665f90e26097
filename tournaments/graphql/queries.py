"""Tournament and match queries.

Each resolver calls the selector its REST twin calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from django.utils.translation import gettext as _
from strawberry import relay

from apikit.enums import plain
from apikit.global_ids import described
from apikit.graphql import Connection, authorization
from apikit.graphql_pages import EVENTS, Page, page_of, paged, sliced, window
from infra.errors import ApplicationError, NotFoundError
from matches.observer import Viewer
from matches.selectors import match_by_id, match_view
from matches.shapes import MatchView as MatchViewShape
from tournaments import inputs
from tournaments.actions import TOURNAMENT
from tournaments.callers import actor_of
from tournaments.enums import ListStatus
from tournaments.graphql.arguments import MatchId, TournamentId, match_number, tournament_number
from tournaments.graphql.cardstats import CardStats
from tournaments.graphql.types import (
    AdviceView,
    MatchConnection,
    MatchView,
    SeatView,
    TournamentEventConnection,
    TournamentListItem,
    TournamentView,
)
from tournaments.inputs import MAX_NUMBER
from tournaments.selectors.advice import draft_advice
from tournaments.selectors.cardstats import card_figures, set_figures
from tournaments.selectors.events import events_after, released_seq
from tournaments.selectors.listing import tournament_list, tournament_list_item
from tournaments.selectors.matches import match_list_named, match_list_of
from tournaments.selectors.tournaments import tournament_view_of
from tournaments.selectors.viewers import (
    Organizer,
    SeatRow,
    require_tournament,
    tournament_id_of_code,
    viewer_in,
)
from tournaments.shapes import AdviceView as AdviceViewShape
from tournaments.shapes import TournamentView as TournamentViewShape


def caller_seat(info: strawberry.Info) -> SeatRow | None:
    """The calling seat; ``None`` for a spectator or an organizer.

    ``bad_token`` for an unknown token, as in REST.
    """
    found = caller_actor(info)
    return None if isinstance(found, Organizer) else found


def caller_actor(info: strawberry.Info) -> SeatRow | Organizer | None:
    """The calling seat or organizer, read afresh each time, as REST's views do.

    The view after a mutation must see the seat's new ``version``. It must never see the row read
    before.
    """
    return actor_of(authorization(info))


def viewer_at(info: strawberry.Info, tournament_id: int) -> Viewer:
    """The caller viewing ``tournament_id``; unless seated there, a spectator."""
    return viewer_in(caller_seat(info), tournament_id)


def tournament_of(info: strawberry.Info, tournament_id: int) -> TournamentView:
    viewer = viewer_at(info, tournament_id)
    found: TournamentViewShape = tournament_view_of(tournament_id=tournament_id, viewer=viewer)
    return found


def match_of(info: strawberry.Info, match_id: int) -> MatchViewShape:
    match = match_by_id(match_id)
    return match_view(match, viewer_at(info, match.tournament_id))


def _filters(status: str | None, league: str | None) -> dict[str, str | None]:
    """The list's filters, checked by REST's ``ListQuery``.

    They give the same ``invalid`` details.
    """
    sent = {name: value for name, value in (("status", status), ("league", league)) if value}
    query = inputs.ListQuery(data=sent)
    query.is_valid(raise_exception=True)
    return {name: query.validated_data.get(name) for name in ("status", "league")}


def node_of(info: strawberry.Info, id: str) -> relay.Node:
    """A global id's object, as the caller may see it.

    Ids look like ``TournamentView:7`` or ``SeatView:7:0``, in base64. An id the server did not make
    is ``invalid``. An unknown object is ``not_found``.
    """
    try:
        found = relay.GlobalID.from_id(id)
    except ValueError:
        found = None
    numbers = None if found is None else _numbers(found.node_id)
    if found is None or numbers is None or len(numbers) != NODES.get(found.type_name, (0,))[0]:
        raise ApplicationError("invalid", _("Not a global id of this API."), {"id": id[:64]})
    node: relay.Node = NODES[found.type_name][1](info, *numbers)  # or a Node's shape
    return node


def _numbers(node_id: str) -> list[int] | None:
    """A node id's numbers (``7``, ``7:-1``).

    The first is an object's number. Any other is a seat's.
    """
    parts = node_id.split(":")
    if not all(re.fullmatch(r"-?[0-9]{1,12}", part) for part in parts):
        return None
    numbers = [int(part) for part in parts]
    if not 0 < numbers[0] <= MAX_NUMBER or any(not -1 <= n < 100 for n in numbers[1:]):
        return None
    return numbers


def seat_of(info: strawberry.Info, tournament_id: int, number: int) -> SeatView:
    """Seat ``number`` of the tournament, as the tournament's view shows it to the caller.

    Both use one projection (``tournament_view_of``). So ``node`` shows nothing the view hides.
    """
    view: TournamentViewShape = tournament_of(info, tournament_id)
    for seat in view.seats:
        if seat.number == number:
            return seat
    raise NotFoundError("not_found", _("No such seat."), {"seat": number})


def listed_tournament(info: strawberry.Info, tournament_id: int) -> TournamentListItem:
    """A tournament as the public list shows it to any caller (nothing secret)."""
    caller_actor(info)  # a bad token is refused as everywhere
    return tournament_list_item(tournament_id)


NODES: dict[str, tuple[int, Callable[..., Any]]] = {
    "TournamentView": (1, tournament_of),
    "TournamentListItem": (1, listed_tournament),
    "MatchView": (1, match_of),
    "SeatView": (2, seat_of),
}


@strawberry.type
class Query:
    @strawberry.field(
        description="Any object by its global `id` (a tournament or a tournament list's item, a "
        "match, a seat, a card or a card set, a league's object), as you may see it."
    )
    def node(
        self,
        info: strawberry.Info,
        id: Annotated[strawberry.ID, strawberry.argument(description="A global id.")],
    ) -> relay.Node:
        return node_of(info, id)

    @strawberry.field(description='A card design\'s figures from stored play (key "Set/Name").')
    def card_stats(
        self, key: Annotated[str, strawberry.argument(description='"Set/Name".')]
    ) -> CardStats:
        return card_figures(key=key)

    @strawberry.field(description="A card set's figures from stored play.")
    def set_stats(
        self, name: Annotated[str, strawberry.argument(description="Set name.")]
    ) -> CardStats:
        return set_figures(name=name)

    @strawberry.field(description="A tournament as you may see it (by id or by room code).")
    def tournament(
        self,
        info: strawberry.Info,
        id: Annotated[
            strawberry.ID | None,
            strawberry.argument(description=described("The tournament's id", TOURNAMENT.nodes)),
        ] = None,
        code: Annotated[str | None, strawberry.argument(description="Room code.")] = None,
    ) -> TournamentView:
        if (id is None) == (code is None):
            raise ApplicationError("invalid", _("Give `id` or `code`, not both."), {})
        if id is not None:
            return tournament_of(info, tournament_number(id, "id"))
        assert code is not None
        return tournament_of(info, tournament_id_of_code(code))

    @strawberry.field(description="Tournaments, newest first (REST's list, nothing secret).")
    @paged()
    def tournaments(
        self,
        info: strawberry.Info,
        status: Annotated[
            ListStatus | None,
            strawberry.argument(
                description="lobby, running (Deck or Match Phase), finished, cancelled."
            ),
        ] = None,
        league: Annotated[
            str | None,
            strawberry.argument(description="A league's slug: only its seasons' tournaments."),
        ] = None,
        *,
        page: Page,
    ) -> Connection[TournamentListItem]:
        caller_actor(info)  # a bad token is refused here as everywhere
        filters = _filters(plain(status), league)

        def read(offset: int, limit: int) -> tuple[list[TournamentListItem], int]:
            found = tournament_list(**filters, limit=limit, offset=offset)
            return found.results, found.count

        return sliced(read, page)

    @strawberry.field(
        description="The tournament's released log as you may see it (the stream's and "
        "`tournamentEvents`' events: `hidden` for those you may not see), gapless; a cursor "
        "holds its event's seq."
    )
    @paged(EVENTS)
    def tournament_log(
        self, info: strawberry.Info, tournament_id: TournamentId, page: Page
    ) -> TournamentEventConnection:
        number = tournament_number(tournament_id)
        viewer = viewer_at(info, number)
        total = released_seq(number)  # the log's bound anyone is told
        start, stop = page.bounds(total)
        frames = events_after(tournament_id=number, after=start, viewer=viewer).events
        return window(frames[: stop - start], page, start=start, total=total)

    @strawberry.field(description="A match as you may see it.")
    def match(self, info: strawberry.Info, id: MatchId) -> MatchView:
        found: MatchViewShape = match_of(info, match_number(id, "id"))
        return found

    @strawberry.field(description="A tournament's matches as you may see them, in play order.")
    @paged()
    def matches(
        self, info: strawberry.Info, tournament_id: TournamentId, page: Page
    ) -> MatchConnection:
        number = tournament_number(tournament_id)
        viewer = viewer_at(info, number)
        # REST's selector and cache: a cached list names its content, so its page is reused.
        listed, content = match_list_named(tournament_id=number, viewer=viewer)
        return page_of(listed, page, content=content)

    @strawberry.field(
        description="Draft advice for your seat's current options or display: each choice's "
        "estimated chance to win your next match, by practice matches against a model of your "
        "rival built from public facts only (REST's advice/; refused where not allowed)."
    )
    def advice(self, info: strawberry.Info, tournament_id: TournamentId) -> AdviceView:
        number = tournament_number(tournament_id)
        found: AdviceViewShape = draft_advice(tournament_id=number, seat=caller_seat(info))
        return found

    @strawberry.field(description="Your matches' pending questions in a tournament (seats only).")
    @paged()
    def pending_questions(
        self, info: strawberry.Info, tournament_id: TournamentId, page: Page
    ) -> MatchConnection:
        number = tournament_number(tournament_id)
        viewer = viewer_at(info, number)
        if viewer.seat_id is None:
            require_tournament(number)
            return page_of([], page)
        views = match_list_of(tournament_id=number, viewer=viewer)
        return page_of([view for view in views if view.question is not None], page)
