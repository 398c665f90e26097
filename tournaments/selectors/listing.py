"""The public list of tournaments: what anyone may know of each, never a secret.

No room code, token, seed or nonce leaves here. A lobby is joined by a code its host shares.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import NotFoundError
from tournaments.models import Seat, Status, Tournament
from tournaments.shapes import TournamentList, TournamentListItem

# The list's status filter: "running" is a Deck or a Match Phase.
STATUS_FILTERS: dict[str, tuple[str, ...]] = {
    "lobby": (Status.LOBBY,),
    "running": (Status.DECK, Status.MATCH),
    "finished": (Status.FINISHED,),
    "cancelled": (Status.CANCELLED,),
}
FIELDS = (
    "pk",
    "title",
    "status",
    "round",
    "seat_count",
    "basic_set",
    "additional_sets",
    "beach_cup",
    "winter_mode",
    "robot_difficulty",
    "winners",
    "created_at",
)


def tournament_list(
    *, status: str | None, limit: int, offset: int, league: str | None = None
) -> TournamentList:
    """One page of tournaments, newest first. Two queries: the count and the page."""
    tournaments = Tournament.objects.all()
    if status is not None:
        tournaments = tournaments.filter(status__in=STATUS_FILTERS[status])
    if league is not None:
        # The leagues app's link (leagues), named by its relation: no import of it.
        tournaments = tournaments.filter(league_link__season__league__slug=league)
    rows = _rows(tournaments.order_by("-pk"))[offset : offset + limit]
    return TournamentList(
        count=tournaments.count(),
        limit=limit,
        offset=offset,
        results=[_item(values) for values in rows],
    )


def tournament_list_item(tournament_id: int) -> TournamentListItem:
    """One tournament as the public list shows it, for GraphQL's ``node(id:)``.

    ``not_found`` when there is no such tournament.
    """
    found = _rows(Tournament.objects.filter(pk=tournament_id)).first()
    if found is None:
        raise NotFoundError("not_found", _("No such tournament."), {"tournament": tournament_id})
    return _item(found)


def _rows(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament, dict[str, object]]:
    host = Seat.objects.filter(tournament=OuterRef("pk"), is_host=True).values("name")[:1]
    return tournaments.annotate(
        seated=Count("seats", filter=Q(seats__number__gte=0)), host=Subquery(host)
    ).values(*FIELDS, "seated", "host")


def _item(values: Mapping[str, object]) -> TournamentListItem:
    lobby = values["status"] == Status.LOBBY
    seats, seated = values["seat_count"], values["seated"]
    assert isinstance(seats, int) and isinstance(seated, int)  # the columns' and a count's
    return row(
        TournamentListItem,
        values,
        id=values["pk"],
        title=values["title"] or None,
        seats_taken=seated,
        free_seats=seats - seated if lobby else None,
        winners=values["winners"] if values["status"] == Status.FINISHED else [],
    )
