"""Response shapes of the tournament API's matches, for the OpenAPI schema (the selectors build
the data; the tournament's own responses are shapes: ``tournaments.shapes``)."""

from __future__ import annotations

from rest_framework import serializers

from config.enums import values_of
from tournaments import enums


class MatchSeatOut(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    side = serializers.CharField(help_text="A or B in the match's events.")


class QuestionOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="Send it back with your answer.")
    kind = serializers.ChoiceField(choices=values_of(enums.QuestionKind))
    card = serializers.JSONField(help_text="The uid of the card asking.")
    card_key = serializers.CharField(allow_null=True)
    options = serializers.ListField(child=serializers.JSONField())
    option_keys = serializers.ListField(child=serializers.CharField())
    option_seats = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        required=False,
        help_text="The bench seat (0-5) of each card option, null off the bench; [] otherwise.",
    )
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    prompt = serializers.CharField()
    default = serializers.ListField(child=serializers.JSONField(), help_text="The policy's answer.")
    deadline = serializers.DateTimeField(allow_null=True)


class MatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    round = serializers.IntegerField()
    park = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=values_of(enums.MatchKind), help_text="normal or winter."
    )
    seats = MatchSeatOut(many=True)
    status = serializers.ChoiceField(
        choices=values_of(enums.MatchViewStatus),
        help_text="scheduled, waiting, playing (recorded, events still being released), "
        "finished or failed.",
    )
    winner = serializers.IntegerField(allow_null=True, help_text="Seat number, once visible.")
    reason = serializers.CharField(allow_null=True)
    fans_gained = serializers.DictField(allow_null=True)
    events_released = serializers.IntegerField(
        help_text="Released events this viewer may see (hidden ones not counted)."
    )
    question = QuestionOut(allow_null=True, help_text="Your pending question (only yours).")


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="1, 2, 3, … with no gap (payload.seq + 1).")
    kind = serializers.ChoiceField(
        choices=values_of(enums.MatchEventKind),
        help_text="The event kind, or `hidden` for one you may not see.",
    )
    payload = serializers.DictField(allow_null=True, help_text="null for a hidden event.")


class MatchCheckOut(serializers.Serializer):
    match = serializers.IntegerField()
    seed = serializers.BooleanField(help_text="Its seed is the one derived from the revealed seed.")
    events = serializers.BooleanField(help_text="Replaying it gives exactly the stored events.")
    rules_version = serializers.IntegerField(
        help_text="The rules version it was played and is replayed by."
    )


class VerifyChecksOut(serializers.Serializer):
    commitment = serializers.BooleanField(
        help_text="SHA-256 of '<seed>:<nonce>' is the commitment."
    )
    trophies = serializers.BooleanField(help_text="The trophy stacks were dealt from the seed.")
    matches = serializers.BooleanField(help_text="Every match passed both of its checks.")


class VerifyOut(serializers.Serializer):
    ok = serializers.BooleanField()
    checks = VerifyChecksOut()
    seed = serializers.IntegerField()
    nonce = serializers.CharField()
    commitment = serializers.CharField()
    matches = MatchCheckOut(many=True)


class ReplayCardsOut(serializers.Serializer):
    entries = serializers.JSONField(help_text="Every card design of the frozen card data.")
    all_sets = serializers.ListField(child=serializers.CharField())


class ReplayMatchOut(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    park = serializers.CharField()
    status = serializers.CharField()
    seats = serializers.JSONField(help_text='The seat number of each side: {"A": n, "B": m}.')
    seed = serializers.CharField(help_text="The match's seed, a decimal string (63 bits).")
    setup = serializers.JSONField(
        help_text="The engine's input: both decks in order and the match's share of each pile "
        "(`[uid, key]` pairs, top first), round, park, first side, trophies, fans, flags."
    )
    answers = serializers.JSONField(help_text="Every answer given to a card question, in order.")
    events = serializers.JSONField(help_text="Every event the match recorded, shuffles included.")


class ReplayOut(serializers.Serializer):
    tournament = serializers.IntegerField()
    seed = serializers.CharField(help_text="The revealed seed, a decimal string (63 bits).")
    nonce = serializers.CharField()
    commitment = serializers.CharField(help_text="SHA-256 of '<seed>:<nonce>', shown from start.")
    cards = ReplayCardsOut()
    matches = ReplayMatchOut(many=True)
