"""Request bodies of the tournament API (validation of shape only; the rules live in services)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.rules.options import ALL_ADDITIONAL, BASIC_SETS
from tournaments.rules.winter import MODES


class CreateInput(serializers.Serializer):
    name = serializers.CharField(max_length=40, help_text="The host's name.")
    seats = serializers.IntegerField(min_value=1, max_value=8, help_text="Seats, 1-8.")
    basic_set = serializers.ChoiceField(choices=sorted(BASIC_SETS), default="City")
    additional_sets = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ALL_ADDITIONAL)),
        required=False,
        help_text="Exactly five; default: five random base-box sets.",
    )
    beach_cup = serializers.BooleanField(default=False, help_text="Beach Cup draft rules.")
    winter_park = serializers.ChoiceField(choices=list(MODES), default="off")
    robot_difficulty = serializers.IntegerField(min_value=1, max_value=5, default=1)
    solo_challenge = serializers.BooleanField(default=False)
    deck_deadline_seconds = serializers.IntegerField(
        min_value=5, max_value=86400, required=False, allow_null=True, default=None
    )
    answer_deadline_seconds = serializers.IntegerField(min_value=1, max_value=3600, default=30)
    seed = serializers.IntegerField(
        min_value=0, max_value=2**62, required=False, allow_null=True, default=None
    )


class JoinInput(serializers.Serializer):
    code = serializers.CharField(max_length=8, help_text="The room code.")
    name = serializers.CharField(max_length=40)


class BotsInput(serializers.Serializer):
    count = serializers.IntegerField(min_value=1, max_value=7)


class VersionedInput(serializers.Serializer):
    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The tournament version you acted on; a stale one is refused (409 stale).",
    )


class ChooseInput(VersionedInput):
    option = serializers.IntegerField(min_value=0, help_text="Index into the round's options.")


class PickInput(VersionedInput):
    card = serializers.IntegerField(help_text="The uid of a card in your display.")


class CardsInput(VersionedInput):
    cards = serializers.ListField(child=serializers.IntegerField(), allow_empty=True)


class SeatSettingsInput(serializers.Serializer):
    answers_live = serializers.BooleanField(
        help_text="Answer your cards' questions yourself (else your policy answers at once)."
    )


class AnswerInput(serializers.Serializer):
    question = serializers.IntegerField(help_text="The pending question's seq.")
    answer = serializers.ListField(child=serializers.JSONField(), allow_empty=True)
