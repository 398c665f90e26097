"""A league's organizers manage the league itself.

They add and remove co-organizers by username. Each change is audited, and the last organizer stays.
They edit its name, description and visibility. They may delete it while none of its tournaments has
been played. Each organizer lists the leagues it organizes.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import ConflictError, NotFoundError
from leagues.models import League, OrganizerChange, OrganizerChangeKind, Visibility
from leagues.organizing_shapes import OrganizerChangeItem, OrganizerItem
from leagues.selectors.leagues import league_view
from leagues.services.leagues import league_of, organizers_changed, require_organizer
from leagues.shapes import LeagueItem, LeagueView
from tournaments.models import Status, Tournament
from tournaments.selectors.viewers import ORGANIZE, Organizer

# A tournament that left its lobby was played (or is being played), unless it was cancelled.
PLAYED = (Status.DECK, Status.MATCH, Status.FINISHED)


def organizer_list(*, organizer: Organizer | None, slug: str) -> list[OrganizerItem]:
    """The league's organizers by username, for its organizers."""
    league = league_of(slug)
    require_organizer(organizer, league)
    names = league.organizers.order_by("username").values_list("username", flat=True)
    return [OrganizerItem(username=name) for name in names]


def organizer_add(*, organizer: Organizer | None, slug: str, username: str) -> OrganizerItem:
    """Another approved organizer becomes one of the league's organizers."""
    league = league_of(slug)
    by = require_organizer(organizer, league)
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None or not user.has_perm(ORGANIZE):
        raise NotFoundError(
            "unknown_organizer",
            _("No approved organizer has that username."),
            {"username": username},
        )
    if league.organizers.filter(pk=user.pk).exists():
        raise ConflictError("already_organizer", _("That organizer organizes this league already."))
    with transaction.atomic():
        league.organizers.add(user)
        organizers_changed(league, OrganizerChangeKind.ADDED, user.get_username(), by.name)
    return OrganizerItem(username=user.get_username())


def organizer_remove(*, organizer: Organizer | None, slug: str, username: str) -> None:
    """One of the league's organizers, the caller included, stops organizing it.

    The last one stays (``409 last_organizer``).
    """
    by = require_organizer(organizer, league_of(slug))
    with transaction.atomic():
        # The league's row lock: two organizers removing each other at once cannot both pass
        # the count and leave the league with none.
        league = League.objects.select_for_update().get(slug=slug)
        user = league.organizers.filter(username=username).first()
        if user is None:
            raise NotFoundError(
                "unknown_organizer",
                _("This league has no organizer with that username."),
                {"username": username},
            )
        if league.organizers.count() == 1:
            raise ConflictError(
                "last_organizer", _("A league keeps at least one organizer: add another first.")
            )
        league.organizers.remove(user)
        organizers_changed(league, OrganizerChangeKind.REMOVED, user.get_username(), by.name)


def organizer_change_rows(*, organizer: Organizer | None, slug: str) -> QuerySet[OrganizerChange]:
    """Who added or removed which organizer, when, oldest first. For the league's organizers."""
    league = league_of(slug)
    require_organizer(organizer, league)
    # Not the related manager's: it reads each row's league id (which GraphQL's optimizer may
    # leave unread) to attach the league.
    return OrganizerChange.objects.filter(league=league)


def organizer_changes(*, organizer: Organizer | None, slug: str) -> list[OrganizerChangeItem]:
    rows = organizer_change_rows(organizer=organizer, slug=slug)
    return [row(OrganizerChangeItem, change) for change in rows]


def league_update(
    *, organizer: Organizer | None, slug: str, changes: dict[str, object]
) -> LeagueView:
    """The league's name, description or visibility (``public``). Its slug stays its address."""
    league = league_of(slug)
    by = require_organizer(organizer, league)
    for name in ("name", "description"):
        if name in changes:
            setattr(league, name, changes[name])
    if "public" in changes:
        league.visibility = Visibility.PUBLIC if changes["public"] else Visibility.UNLISTED
    league.save(update_fields=["name", "description", "visibility"])
    return league_view(slug, by)


def league_delete(*, organizer: Organizer | None, slug: str) -> None:
    """Delete a league no tournament was played in (``409 league_played`` otherwise).

    Its seasons, members, webhooks and requests go with it. Its lobbies go on as ordinary
    tournaments.
    """
    require_organizer(organizer, league_of(slug))
    with transaction.atomic():
        # The league's lock (a recording holds it), then its tournaments' rows in id order (a
        # start holds its tournament's): a lobby starting meanwhile is seen here as played, or
        # starts after the delete, unlinked.
        league = League.objects.select_for_update().filter(slug=slug).first()
        if league is None:  # another delete went first
            return
        tournaments = Tournament.objects.filter(league_link__season__league=league)
        statuses = list(tournaments.select_for_update().order_by("pk").values_list("status"))
        played = sum(1 for (status,) in statuses if status in PLAYED)
        if played:
            raise ConflictError(
                "league_played",
                _("Tournaments were played in this league: it stays, with its record."),
                {"tournaments": played},
            )
        league.delete()


def my_league_rows(*, organizer: Organizer | None) -> QuerySet[League]:
    """Every league the caller organizes, public or unlisted, by name."""
    return League.objects.filter(organizers=require_organizer(organizer).user_id)


def my_leagues(*, organizer: Organizer | None) -> list[LeagueItem]:
    leagues = my_league_rows(organizer=organizer)
    return [
        row(LeagueItem, league, public=league.visibility == Visibility.PUBLIC) for league in leagues
    ]
