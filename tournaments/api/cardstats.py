"""Card statistics from stored play: ``GET /api/v1/cards/{key}/stats/`` (key "Set/Name") and
``GET /api/v1/card-sets/{name}/stats/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config.enums import values_of
from tournaments.api.inputs import PageQuery
from tournaments.api.views import ApiView
from tournaments.enums import SimulationStatus
from tournaments.selectors.cardstats import card_stats, set_stats


class FiguresOut(serializers.Serializer):
    offered = serializers.IntegerField(help_text="Copies shown in Deck Phase displays.")
    picked = serializers.IntegerField(help_text="Copies kept.")
    pick_rate = serializers.FloatField(allow_null=True, help_text="picked / offered.")
    decks = serializers.IntegerField(help_text="Match sides whose deck held it (sample size).")
    deck_wins = serializers.IntegerField(help_text="Of those, the sides that won.")
    win_rate = serializers.FloatField(allow_null=True, help_text="deck_wins / decks.")
    win_interval = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text="The win rate's 95 % Wilson interval [low, high]; null without a match.",
    )
    reveals = serializers.IntegerField(help_text="Copies revealed in matches.")
    average_power = serializers.FloatField(allow_null=True, help_text="Mean power per attack.")
    effects = serializers.IntegerField(help_text="Times its effect resolved.")


class BySetsOut(FiguresOut):
    sets = serializers.CharField(help_text="The sets in play, sorted, joined by +.")


class ByPlayerOut(FiguresOut):
    player = serializers.CharField(help_text="human, rookie, steady, champion or robot.")


class BySetsPageOut(serializers.Serializer):
    count = serializers.IntegerField(help_text="Set combinations with recorded play.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = BySetsOut(many=True, help_text="This page of them, by combination name.")


class StatsOut(serializers.Serializer):
    total = FiguresOut()
    by_sets = BySetsPageOut(help_text="Per set combination, paged with limit and offset.")
    by_player = ByPlayerOut(many=True, help_text="Per kind of player (five at most).")


class SimulationOut(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=values_of(SimulationStatus), help_text="queued, running, done or failed."
    )
    matches = serializers.IntegerField(help_text="Pairs of matches asked for.")
    done = serializers.IntegerField(help_text="Pairs played so far.")
    win_rate_with = serializers.FloatField(allow_null=True)
    win_interval_with = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    win_rate_without = serializers.FloatField(allow_null=True)
    win_interval_without = serializers.ListField(child=serializers.FloatField(), allow_null=True)
    difference = serializers.FloatField(allow_null=True, help_text="with - without.")
    finished_at = serializers.DateTimeField(allow_null=True)


class CardStatsOut(StatsOut):
    key = serializers.CharField(help_text='"Set/Name".')
    simulation = SimulationOut(
        allow_null=True,
        help_text="The latest balance simulation: paired bot matches with and without the card.",
    )


class SetStatsOut(StatsOut):
    set = serializers.CharField()


def _page(request: Request) -> dict[str, int]:
    query = PageQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return {"limit": query.validated_data["limit"], "offset": query.validated_data["offset"]}


class CardStatsView(ApiView):
    query_parameters = frozenset(PageQuery().fields)

    @extend_schema(parameters=[PageQuery], responses=CardStatsOut)
    def get(self, request: Request, key: str) -> Response:
        """A design's figures; ``by_sets`` paged with ``limit`` (1-100) and ``offset``."""
        return Response(card_stats(key=key, **_page(request)))


class SetStatsView(ApiView):
    query_parameters = frozenset(PageQuery().fields)

    @extend_schema(parameters=[PageQuery], responses=SetStatsOut)
    def get(self, request: Request, name: str) -> Response:
        """A set's figures; ``by_sets`` paged with ``limit`` (1-100) and ``offset``."""
        return Response(set_stats(name=name, **_page(request)))
