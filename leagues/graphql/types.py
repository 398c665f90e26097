"""The league objects of GraphQL, made from their one declaration (``leagues.shapes``).

No field is written twice. Some shapes are one model's row: a league of a list, a member, a
correction, a webhook endpoint, a delivery, an organizer change. Each of those is a
strawberry-django type of that model (``apikit.graphql_models``). Its lists are read through the
optimizer. Each field not named as the model's field says what it reads.

The others are ``apikit.shapes.graphql_type`` s of the selectors' shapes. A league's view and its
seasons show their join codes to its organizers alone.

Every list of objects in them is a connection (``first``/``after``, ``last``/``before``). Leagues,
seasons and members are ``Node`` s. The lists' connections are made with their root fields
(``apikit.lists``).
"""

from __future__ import annotations

import strawberry_django
from django.db.models import Prefetch

from apikit.graphql_models import model_type
from apikit.shapes import graphql_type
from leagues import models, organizing_shapes, shapes

# The model types first: the shapes' types below nest them (``leagues.shapes`` names this
# module as where they are made).


def _public(root: models.League) -> bool:
    return root.visibility == models.Visibility.PUBLIC


LeagueItem = model_type(
    shapes.LeagueItem,
    models.League,
    {"public": strawberry_django.field(_public, only=("visibility",))},
)


def _handle(root: models.Member) -> str:
    return root.handle


def _bot_level(root: models.Member) -> str | None:
    return root.bot_level or None


def _claimed(root: models.Member) -> bool:
    return root.claimed_at is not None


MemberItem = model_type(
    shapes.MemberItem,
    models.Member,
    {
        "member": strawberry_django.field(_handle, only=("handle",)),
        "bot_level": strawberry_django.field(_bot_level, only=("bot_level",)),
        "claimed": strawberry_django.field(_claimed, only=("claimed_at",)),
    },
)


def _season(root: models.Correction) -> int:
    return root.season_id


def _tournament(root: models.Correction) -> int | None:
    return root.link.tournament_id if root.link else None


def _member(root: models.Correction) -> str | None:
    return root.member.handle if root.member else None


def _match(root: models.Correction) -> int | None:
    return root.match_id


def _places(root: models.Correction) -> dict[str, int]:
    """A manual result's places by handle, from its league's prefetched members."""
    if not root.places:
        return {}
    handles = {member.pk: member.handle for member in root.league.members.all()}
    return {handles[int(k)]: place for k, place in root.places.items()}


def _handles(info: object) -> Prefetch:
    """The league members' handles, for the places of a page of corrections."""
    return Prefetch("league__members", queryset=models.Member.objects.only("league", "handle"))


CorrectionView = model_type(
    shapes.CorrectionView,
    models.Correction,
    {
        "season": strawberry_django.field(_season, only=("season",)),
        "tournament": strawberry_django.field(
            _tournament, only=("link__tournament",), select_related=("link",)
        ),
        "member": strawberry_django.field(
            _member, only=("member__handle",), select_related=("member",)
        ),
        "match": strawberry_django.field(_match, only=("match",)),
        "places": strawberry_django.field(
            _places,
            only=("places", "league__id"),
            select_related=("league",),
            prefetch_related=(_handles,),
        ),
    },
)
WebhookItem = model_type(shapes.WebhookItem, models.WebhookEndpoint, {})
Delivery = model_type(shapes.Delivery, models.WebhookDelivery, {})
OrganizerChangeItem = model_type(organizing_shapes.OrganizerChangeItem, models.OrganizerChange, {})

LeagueView = graphql_type(shapes.LeagueView)
SeasonView = graphql_type(shapes.SeasonView)
Standings = graphql_type(shapes.Standings)
MemberHistory = graphql_type(shapes.MemberHistory)
ScheduleView = graphql_type(shapes.ScheduleView)
TournamentScheduleView = graphql_type(shapes.TournamentScheduleView)
TournamentResults = graphql_type(shapes.TournamentResults)
