"""Response shapes of the tournament API, for the OpenAPI schema (the selectors build the data)."""

from __future__ import annotations

from rest_framework import serializers

from config.enums import values_of
from tournaments import enums


class SeatTokenOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="Seat number (0-7).")
    token = serializers.CharField(help_text="Bearer token for this seat; shown only once.")


class TicketOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="Tournament id.")
    code = serializers.CharField(help_text="Room code to share with players.")
    seat = SeatTokenOut(allow_null=True, help_text="Your seat; null when an organizer created it.")


class CardOut(serializers.Serializer):
    uid = serializers.IntegerField(help_text="This physical card's id in the tournament.")
    card = serializers.CharField(help_text='Catalogue key "Set/Name".')


class PendingOut(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=values_of(enums.PendingKind), help_text="remove_for_pick, must_remove or draw_keep."
    )
    card = serializers.CharField(help_text="The picked card whose effect waits.")
    count = serializers.IntegerField()
    offered = CardOut(many=True, help_text="draw_keep: the cards to keep one of.")
    eligible = CardOut(
        many=True,
        help_text="The cards a `resolve` may name: the deck cards the effect's text allows "
        "(remove_for_pick, must_remove), or the offered cards (draw_keep).",
    )
    optional = serializers.BooleanField(help_text="`[]` (or `deck/finish/`) declines it.")


class TurnOut(serializers.Serializer):
    options = serializers.ListField(child=serializers.CharField())
    option = serializers.IntegerField(allow_null=True)
    display = CardOut(many=True, help_text="Your secret display.")
    picks_left = serializers.IntegerField()
    redraw_used = serializers.BooleanField()
    picked = CardOut(many=True)
    pending = PendingOut(allow_null=True)
    finished = serializers.BooleanField()
    auto_played = serializers.BooleanField()


class YouOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    version = serializers.IntegerField(
        help_text="Send it back as `version` with an action: it moves only when your own "
        "situation changes (your turn, your deck, the phase or round)."
    )
    answers_live = serializers.BooleanField()
    deck = CardOut(many=True, help_text="Your deck, sorted by card (its order is never shown).")
    turn = TurnOut(allow_null=True)
    actions = serializers.ListField(child=serializers.CharField(), help_text="What you can do now.")


class SeatOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="0-7; the Robot is -1.")
    name = serializers.CharField()
    kind = serializers.ChoiceField(
        choices=values_of(enums.SeatKind), help_text="human, bot or robot."
    )
    is_host = serializers.BooleanField()
    tokens = serializers.IntegerField(help_text="Public fan tokens.")
    deck_size = serializers.IntegerField()
    finished = serializers.BooleanField(allow_null=True, help_text="Finished this Deck Phase.")
    auto_played = serializers.BooleanField()
    bot_level = serializers.CharField(
        allow_null=True,
        help_text="A bot's level (rookie, steady or champion); `steady` for a dropped seat a bot "
        "plays for its owner; null for a person playing.",
    )
    dropped = serializers.BooleanField(
        help_text="A person's seat a steady bot plays until its owner takes it back."
    )


class TrophyOut(serializers.Serializer):
    park = serializers.CharField()
    round = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    to_box = serializers.BooleanField(help_text="Won by the Robot at 3-7 seats.")
    fans = serializers.IntegerField(allow_null=True, help_text="Null while secret to you.")


class StandingOut(serializers.Serializer):
    seat = serializers.IntegerField()
    fans = serializers.IntegerField(help_text="The fans you may see.")
    fans_complete = serializers.BooleanField(help_text="False while some trophy fans are secret.")
    trophies = serializers.IntegerField()
    highest_round = serializers.IntegerField()


class ParkOut(serializers.Serializer):
    name = serializers.CharField()
    winter = serializers.BooleanField()


class OptionsOut(serializers.Serializer):
    seat_count = serializers.IntegerField()
    basic_set = serializers.CharField(help_text="City or Rainbow.")
    additional_sets = serializers.ListField(child=serializers.CharField())
    beach_cup = serializers.BooleanField(help_text="Beach Cup draft rules.")
    winter_mode = serializers.CharField(help_text="off, normal or all.")
    robot_difficulty = serializers.IntegerField()
    solo_challenge = serializers.BooleanField()
    deck_deadline_seconds = serializers.IntegerField(allow_null=True)
    answer_deadline_seconds = serializers.IntegerField()
    spectator_chat = serializers.BooleanField(help_text="Spectators may join the table chat.")


class PairingOut(serializers.Serializer):
    park = serializers.CharField()
    a = serializers.IntegerField(help_text="Seat number (-1: the Robot).")
    b = serializers.IntegerField(help_text="Seat number (-1: the Robot).")


class FairnessOut(serializers.Serializer):
    commitment = serializers.CharField(
        help_text="SHA-256 (hex) of '<seed>:<nonce>', published before any card is dealt."
    )
    revealed_seed = serializers.IntegerField(
        allow_null=True, help_text="The tournament's seed, revealed when the game ends."
    )
    revealed_nonce = serializers.CharField(
        allow_null=True, help_text="The commitment's nonce, revealed when the game ends."
    )


class TournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text="Room code (seats only).")
    status = serializers.ChoiceField(
        choices=values_of(enums.TournamentStatus),
        help_text="lobby, deck, match, finished or cancelled.",
    )
    round = serializers.IntegerField(help_text="0 in the lobby, 1-7, 8 = the Final.")
    is_final = serializers.BooleanField()
    version = serializers.IntegerField(
        help_text="Moves with every event of the tournament (to act, send `you.version`)."
    )
    options = OptionsOut()
    parks = ParkOut(many=True)
    plan = serializers.ListField(
        child=PairingOut(many=True), help_text="Per round 1-7: who meets whom in which park."
    )
    phase_deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatOut(many=True)
    trophies = TrophyOut(many=True)
    standings = StandingOut(many=True)
    finalists = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField())
    fairness = FairnessOut()
    you = YouOut(allow_null=True)


class TournamentListItemOut(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=values_of(enums.TournamentStatus),
        help_text="lobby, deck, match, finished or cancelled.",
    )
    round = serializers.IntegerField(help_text="0 in the lobby, 8 = the Final.")
    seat_count = serializers.IntegerField()
    seats_taken = serializers.IntegerField(help_text="Players and bots seated (not the Robot).")
    free_seats = serializers.IntegerField(allow_null=True, help_text="In a lobby; else null.")
    host = serializers.CharField(allow_null=True, help_text="The host's name; null if none.")
    basic_set = serializers.CharField()
    additional_sets = serializers.ListField(child=serializers.CharField())
    beach_cup = serializers.BooleanField()
    winter_mode = serializers.CharField()
    robot_difficulty = serializers.IntegerField()
    winners = serializers.ListField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()


class TournamentListOut(serializers.Serializer):
    count = serializers.IntegerField(help_text="Tournaments matching the filter.")
    limit = serializers.IntegerField()
    offset = serializers.IntegerField()
    results = TournamentListItemOut(many=True)


class AdviceChoiceOut(serializers.Serializer):
    option = serializers.IntegerField(required=False, help_text="The option's index (kind option).")
    text = serializers.CharField(required=False, help_text="The option, e.g. `2 from A`.")
    card = serializers.IntegerField(required=False, help_text="A display card's uid (kind card).")
    key = serializers.CharField(required=False, help_text="That card, `Set/Name`.")
    win_probability = serializers.FloatField(help_text="Share of the practice matches won.")
    sample_size = serializers.IntegerField(help_text="Practice matches played for this choice.")


class AdviceOut(serializers.Serializer):
    round = serializers.IntegerField()
    rival = serializers.IntegerField(
        allow_null=True, help_text="The seat you meet next (-1 the Robot); null: none."
    )
    kind = serializers.ChoiceField(
        choices=values_of(enums.AdviceKind),
        help_text="What the choices are: the round's options, your display's cards, or none now.",
    )
    choices = AdviceChoiceOut(many=True)


class ChatMessageOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The message's number in the tournament's log.")
    seat = serializers.IntegerField(allow_null=True, help_text="Null for a spectator's message.")
    spectator = serializers.IntegerField(
        required=False, help_text="A spectator's message: its number in the chat."
    )
    name = serializers.CharField()
    text = serializers.CharField(help_text="Plain text: never render it as HTML.")


class ChatGuestOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="Your number among the chat's spectators.")
    name = serializers.CharField()
    token = serializers.CharField(help_text="Your chat token: send it as `Bearer` to post.")
