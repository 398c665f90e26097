"""Card statistics from stored play: ``GET /api/v1/cards/{key}/stats/`` (key "Set/Name") and
``GET /api/v1/card-sets/{name}/stats/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from config.enums import values_of
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


class StatsOut(serializers.Serializer):
    total = FiguresOut()
    by_sets = BySetsOut(many=True)
    by_player = ByPlayerOut(many=True)


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


class CardStatsView(ApiView):
    @extend_schema(responses=CardStatsOut)
    def get(self, request: Request, key: str) -> Response:
        return Response(card_stats(key=key))


class SetStatsView(ApiView):
    @extend_schema(responses=SetStatsOut)
    def get(self, request: Request, name: str) -> Response:
        return Response(set_stats(name=name))
