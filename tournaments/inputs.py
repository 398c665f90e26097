"""Request bodies of the tournament API.

They validate shape only; the rules live in services.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apikit.inputs import StrictInput
from tournaments.rules.options import BASIC_SETS, BOXES
from tournaments.rules.titles import TITLE_CHARS
from tournaments.rules.winter import MODES


@extend_schema_field({"type": "string", "pattern": "^[0-9]{1,19}$"})
class SeedInput(serializers.IntegerField):
    """A 63-bit seed, sent as a decimal string.

    JSON numbers past 2^53 lose digits in most clients. A JSON number is still taken, deprecated.
    """


class TitleField(serializers.CharField):
    """A tournament's title (``tournaments.rules.titles``); ``""`` leaves it unnamed."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("required", False)
        if not options["required"]:
            options.setdefault("default", "")
        help_text = f'Its title, at most {TITLE_CHARS} characters; "": unnamed ("Game #<id>").'
        super().__init__(max_length=TITLE_CHARS, allow_blank=True, help_text=help_text, **options)

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):  # DRF's CharField takes 12 for "12"
            self.fail("invalid")
        return str(super().to_internal_value(data))


class CreateInput(StrictInput):
    title = TitleField()
    name = serializers.CharField(
        max_length=40,
        required=False,
        help_text="The host's name (required, except for an organizer, who takes no seat).",
    )
    seats = serializers.IntegerField(min_value=1, max_value=8, help_text="Seats, 1-8.")
    basic_set = serializers.ChoiceField(choices=sorted(BASIC_SETS), default="City")
    additional_sets = serializers.ListField(
        # Names, not choices: the catalogue's sets (a curator may add one) are checked by the
        # service, which names what a set lacks (`set_incomplete`) or lists the known ones.
        child=serializers.CharField(max_length=60),
        required=False,
        help_text="Exactly five of `GET /api/v1/card-sets/` with `playable`; default: five "
        "random base-box sets.",
    )
    beach_cup = serializers.BooleanField(default=False, help_text="Beach Cup draft rules.")
    box = serializers.ChoiceField(
        choices=sorted(BOXES),
        required=False,
        allow_null=True,
        default=None,
        help_text="A whole box: `beach_cup` is Rainbow, the Beach Cup draft and five random Beach "
        "Cup sets (unless `additional_sets` names them); `base` is City and five base-box sets. "
        "Not with `basic_set` or `beach_cup`.",
    )
    winter_park = serializers.ChoiceField(choices=list(MODES), default="off")
    robot_difficulty = serializers.IntegerField(min_value=1, max_value=5, default=1)
    solo_challenge = serializers.BooleanField(default=False)
    deck_deadline_seconds = serializers.IntegerField(
        min_value=5, max_value=86400, required=False, allow_null=True, default=None
    )
    answer_deadline_seconds = serializers.IntegerField(min_value=1, max_value=3600, default=30)
    seed = SeedInput(
        min_value=0,
        max_value=2**62,
        required=False,
        allow_null=True,
        default=None,
        help_text="Mixed into the server's secret: a decimal string, 0-4611686018427387904.",
    )
    spectator_chat = serializers.BooleanField(
        default=False, help_text="Spectators may join the table chat by name."
    )

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        sent = self.initial_data
        if attrs.get("box") and any(sent.get(k) is not None for k in ("basic_set", "beach_cup")):
            raise serializers.ValidationError(
                {"box": [_("A box sets the basic set and the draft rules: send one or the other.")]}
            )
        return attrs


def create_options(data: dict[str, Any]) -> dict[str, Any]:
    """The service's tournament options from a valid ``CreateInput``.

    REST and GraphQL share it.
    """
    basic_set, beach_cup = BOXES[data["box"]] if data.get("box") else (None, None)
    return {
        "seat_count": data["seats"],
        "basic_set": basic_set or data["basic_set"],
        "additional_sets": data.get("additional_sets"),
        "box": data.get("box") or "base",
        "beach_cup": data["beach_cup"] if beach_cup is None else beach_cup,
        "winter_mode": data["winter_park"],
        "robot_difficulty": data["robot_difficulty"],
        "solo_challenge": data["solo_challenge"],
        "deck_deadline_seconds": data["deck_deadline_seconds"],
        "answer_deadline_seconds": data["answer_deadline_seconds"],
        "seed": data["seed"],
        "spectator_chat": data["spectator_chat"],
        "title": data["title"],
    }


class JoinInput(StrictInput):
    code = serializers.CharField(max_length=8, help_text="The room code.")
    name = serializers.CharField(max_length=40)


# The largest number a client may send where a seq, a uid or an index is expected (the bound of
# the database's positive integers): anything above is refused as `invalid`, never looked up.
MAX_NUMBER = 2**31 - 1
# The most cards or options one request may name (a deck holds a few dozen cards at most).
MAX_ITEMS = 64


def whole_number(raw: str) -> int | None:
    """``raw`` as a number from 0 to ``MAX_NUMBER``, else None.

    Only ASCII digits count. ``str.isdigit`` alone accepts "²", which ``int`` refuses. ``int`` alone
    accepts "-1", " 7" and "٣". Neither bounds the value.
    """
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 32:  # int() of 4301 digits raises
        return None
    value = int(raw)
    return value if value <= MAX_NUMBER else None


LIST_STATUSES = ("lobby", "running", "finished", "cancelled")


class ListQuery(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=list(LIST_STATUSES),
        required=False,
        help_text="running = a Deck or Match Phase.",
    )
    league = serializers.SlugField(
        required=False, max_length=60, help_text="Only the tournaments of this league's seasons."
    )
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)


class PageQuery(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)


class KickInput(StrictInput):
    seat = serializers.IntegerField(min_value=0, max_value=7, help_text="The seat to remove.")


class BotsInput(StrictInput):
    count = serializers.IntegerField(min_value=1, max_value=7)
    level = serializers.CharField(
        required=False,
        default="rookie",
        max_length=20,
        help_text="The bots' strength: `rookie` (the default), `steady` or `champion`; "
        "anything else is refused with 400 `bad_bot_level`.",
    )


class VersionedInput(StrictInput):
    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=(
            "The `you.version` of the view you acted on: refused with 409 `stale` only if your "
            "own situation (your turn, your deck, the phase or round) changed since."
        ),
    )


class ChooseInput(VersionedInput):
    option = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="Index into the round's options."
    )


class PickInput(VersionedInput):
    card = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="The uid of a card in your display."
    )


class CardsInput(VersionedInput):
    cards = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_NUMBER),
        allow_empty=True,
        max_length=MAX_ITEMS,
    )


class RenameInput(StrictInput):
    title = TitleField(required=True)


class SeatSettingsInput(StrictInput):
    answers_live = serializers.BooleanField(
        help_text="Answer your cards' questions yourself (else your policy answers at once)."
    )


@extend_schema_field({"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]})
class AnswerOption(serializers.Field):
    """One option of a question: a card uid, a seat index, or a word such as ``"top"``.

    A JSON ``true`` is not the number 1, though Python's ``bool`` is an ``int``. Nor is ``1.0``.
    """

    default_error_messages = {
        "invalid": "An option is a whole number or a word, not {kind}.",
        "range": f"An option number is from 0 to {MAX_NUMBER}.",
        "long": "An option word has at most 16 characters.",
    }
    KINDS = {bool: "a boolean", float: "a decimal number", list: "a list", dict: "an object"}

    def to_internal_value(self, data: object) -> int | str:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid", kind=self.KINDS.get(type(data), "null"))
        if isinstance(data, int) and not 0 <= data <= MAX_NUMBER:
            self.fail("range")
        if isinstance(data, str) and len(data) > 16:
            self.fail("long")
        return data

    def to_representation(self, value: int | str) -> int | str:
        return value


class AnswerInput(StrictInput):
    question = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="The pending question's seq."
    )
    answer = serializers.ListField(child=AnswerOption(), allow_empty=True, max_length=MAX_ITEMS)


class ChatInput(StrictInput):
    text = serializers.CharField(
        allow_blank=True, trim_whitespace=False, max_length=2000, help_text="The message (text)."
    )


class ChatMuteInput(StrictInput):
    seat = serializers.IntegerField(
        min_value=0, max_value=7, required=False, help_text="The seat to (un)mute."
    )
    spectator = serializers.IntegerField(
        min_value=1,
        max_value=MAX_NUMBER,
        required=False,
        help_text="Or the spectator to (un)mute: its number in the chat.",
    )
    muted = serializers.BooleanField()

    def validate(self, attrs: dict[str, object]) -> dict[str, object]:
        if ("seat" in attrs) == ("spectator" in attrs):
            raise serializers.ValidationError(_("Name either a seat or a spectator."))
        return attrs


class ChatGuestInput(StrictInput):
    # Long names pass here: the service refuses them with its own code (`chat_bad_name`).
    name = serializers.CharField(
        max_length=200, allow_blank=True, help_text="Your name in the chat (1-24 characters)."
    )


class ChatSettingsInput(StrictInput):
    spectator_chat = serializers.BooleanField(help_text="Spectators may join the chat by name.")
