"""What the league endpoints accept."""

from __future__ import annotations

from rest_framework import serializers

from apikit.inputs import AwareDateTimeField, StrictInput, StrictIntegerField
from leagues.services.webhooks import EVENT_KINDS
from tournaments.inputs import TitleField
from tournaments.rules.bots import DEFAULT_LEVEL, LEVELS
from tournaments.rules.options import BASIC_SETS
from tournaments.rules.winter import MODES


class LeagueInput(StrictInput):
    name = serializers.CharField(max_length=80)
    slug = serializers.SlugField(max_length=60)
    description = serializers.CharField(required=False, default="", allow_blank=True)
    public = serializers.BooleanField(default=True, help_text="False: unlisted.")


class ScoringInput(StrictInput):
    champion = StrictIntegerField(min_value=-1000, max_value=1000, default=10)
    finalist = StrictIntegerField(min_value=-1000, max_value=1000, default=6)
    by_fans_rank = serializers.ListField(
        child=StrictIntegerField(min_value=-1000, max_value=1000),
        max_length=8,
        default=[4, 3, 2, 1],
        help_text="Points of the other seats by their fans rank, best first.",
    )
    played = StrictIntegerField(min_value=-1000, max_value=1000, default=1)


BASICS = sorted(BASIC_SETS)
WINTER = list(MODES)


class SeasonInput(StrictInput):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    scoring = ScoringInput(required=False)
    basic_set = serializers.ChoiceField(choices=BASICS, default="City")
    additional_sets = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        allow_null=True,
        default=None,
        help_text="The five additional sets every tournament uses; none: drawn per tournament.",
    )
    beach_cup = serializers.BooleanField(default=False)
    winter_park = serializers.ChoiceField(choices=WINTER, default="off")
    robot_difficulty = StrictIntegerField(min_value=1, max_value=5, default=1)
    bots_allowed = serializers.BooleanField(default=True)
    advice_allowed = serializers.BooleanField(default=False)


class SeasonTournamentInput(StrictInput):
    """A season's tournament: options left out take the season's; one that differs is refused."""

    seats = StrictIntegerField(min_value=1, max_value=8)
    title = TitleField()
    basic_set = serializers.ChoiceField(choices=BASICS, required=False)
    additional_sets = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False
    )
    beach_cup = serializers.BooleanField(required=False)
    winter_park = serializers.ChoiceField(choices=WINTER, required=False)
    robot_difficulty = StrictIntegerField(min_value=1, max_value=5, required=False)
    deck_deadline_seconds = StrictIntegerField(
        min_value=5, max_value=86400, required=False, allow_null=True, default=None
    )
    answer_deadline_seconds = StrictIntegerField(min_value=1, max_value=3600, default=30)


class HostTournamentInput(SeasonTournamentInput):
    join_code = serializers.CharField(max_length=12, help_text="The season's join code.")
    name = serializers.CharField(max_length=40, help_text="The host's name.")
    member_token = serializers.CharField(
        max_length=64, required=False, help_text="Sit as this league member."
    )


class MemberInput(StrictInput):
    handle = serializers.CharField(max_length=40)


class ClaimInput(StrictInput):
    claim_code = serializers.CharField(max_length=64)


class MemberJoinInput(StrictInput):
    code = serializers.CharField(max_length=8, help_text="The tournament's room code.")
    member_token = serializers.CharField(max_length=64)
    name = serializers.CharField(
        max_length=40, required=False, help_text="The seat's name; default: the member's handle."
    )


class WebhookInput(StrictInput):
    # Checked by the service (leagues.services.destinations), which reads every form of a
    # numeric host as the resolver does: Django's URL validator would call some inward ones
    # merely malformed and pass others.
    url = serializers.CharField(
        max_length=400, help_text="A public http(s) URL (webhook_url_forbidden otherwise)."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENT_KINDS)),
        required=False,
        default=list,
        help_text="Event kinds to send; empty: all of them.",
    )


class EmbedSiteInput(StrictInput):
    # Parsed by the service (leagues.web.embeds.origin_parse): it is written into a
    # header, so nothing but a scheme, a host and a port passes.
    origin = serializers.CharField(
        max_length=200, help_text="scheme://host[:port], e.g. https://club.example (bad_origin)."
    )


class ScoringChangeInput(StrictInput):
    champion = StrictIntegerField(min_value=-1000, max_value=1000, required=False)
    finalist = StrictIntegerField(min_value=-1000, max_value=1000, required=False)
    by_fans_rank = serializers.ListField(
        child=StrictIntegerField(min_value=-1000, max_value=1000),
        max_length=8,
        required=False,
        help_text="Points of the other seats by their fans rank, best first (the whole list).",
    )
    played = StrictIntegerField(min_value=-1000, max_value=1000, required=False)


class SeasonUpdateInput(StrictInput):
    """What an organizer may change in a season: the fields given, the others kept."""

    name = serializers.CharField(max_length=80, required=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ends_on = serializers.DateField(required=False, allow_null=True)
    bots_allowed = serializers.BooleanField(required=False)
    advice_allowed = serializers.BooleanField(required=False)
    archived = serializers.BooleanField(
        required=False, help_text="true: no tournament opens in it any more; false: back."
    )
    scoring = ScoringChangeInput(
        required=False,
        help_text="The keys given replace the table's (until its first result is recorded).",
    )
    basic_set = serializers.ChoiceField(choices=BASICS, required=False)
    additional_sets = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        allow_null=True,
        help_text="The five additional sets; null: drawn per tournament.",
    )
    beach_cup = serializers.BooleanField(required=False)
    winter_park = serializers.ChoiceField(choices=WINTER, required=False)
    robot_difficulty = StrictIntegerField(min_value=1, max_value=5, required=False)


class WebhookUpdateInput(StrictInput):
    """An endpoint's changes: the fields given, the others (and its secret) kept."""

    url = serializers.CharField(
        max_length=400,
        required=False,
        help_text="A public http(s) URL, checked as at registration.",
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EVENT_KINDS)),
        required=False,
        help_text="Event kinds to send; empty: all of them.",
    )
    active = serializers.BooleanField(
        required=False, help_text="false: no new event is logged for it; true: again."
    )


CORRECTION_KINDS = ("disqualify", "manual_result", "forfeit")
MEMBER_KINDS = ("all", "human", "bot")


class ClosureInput(StrictInput):
    """Why a season's results are closed or reopened (kept in the season's audit)."""

    reason = serializers.CharField(max_length=500, help_text="Why: shown with the season.")


class CorrectionInput(StrictInput):
    kind = serializers.ChoiceField(
        choices=list(CORRECTION_KINDS),
        help_text=(
            "disqualify: a member from a tournament or a season; manual_result: places; "
            "forfeit: a member gives up one match of a tournament."
        ),
    )
    reason = serializers.CharField(max_length=500, help_text="Why: shown in the audit trail.")
    tournament = StrictIntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="The tournament's id."
    )
    season = StrictIntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="A season (disqualify)."
    )
    member = serializers.CharField(max_length=60, required=False, help_text="A handle.")
    match = StrictIntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="A match's id (forfeit)."
    )
    places = serializers.DictField(
        child=StrictIntegerField(min_value=1, max_value=8),
        required=False,
        help_text="manual_result: every member's handle → its place (1, 2, 2, 4 for a tie).",
    )


NO_SHOW_POLICIES = ("cancel", "bot")


class ScheduleInput(StrictInput):
    starts_at = AwareDateTimeField(help_text="When it starts by itself (ISO 8601).")
    checkin_minutes = StrictIntegerField(
        min_value=1, max_value=1440, default=30, help_text="Check-in opens this long before."
    )
    no_show = serializers.ChoiceField(
        choices=list(NO_SHOW_POLICIES),
        default="cancel",
        help_text=(
            "A player who did not check in by the start time: cancel the tournament, or bot: a "
            "bot of bot_level takes the seat and the tournament starts."
        ),
    )
    bot_level = serializers.ChoiceField(
        choices=list(LEVELS), default=DEFAULT_LEVEL, help_text="The strength of such a bot."
    )


class FormatQuery(serializers.Serializer):
    format = serializers.ChoiceField(choices=["json", "csv"], required=False)


class StandingsQuery(FormatQuery):
    season = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
    kind = serializers.ChoiceField(choices=list(MEMBER_KINDS), required=False)


class LinesQuery(serializers.Serializer):
    since = serializers.RegexField(
        r"^[0-9a-f]{24}$",
        required=False,
        help_text="A version read before (its ETag, unquoted): only what changed since it.",
    )


def season_changes(data: dict[str, object]) -> dict[str, object]:
    """A season edit's fields by the service's names. ``winter_park`` is ``winter_mode``."""
    changes = {name: value for name, value in data.items() if name != "winter_park"}
    return {**changes, **tournament_options(data)}


def tournament_options(data: dict[str, object]) -> dict[str, object]:
    """A request's tournament options by the service's names.

    ``winter_park`` is the tournament's ``winter_mode``.
    """
    names = ("basic_set", "additional_sets", "beach_cup", "robot_difficulty")
    chosen = {name: data[name] for name in names if name in data}
    if "winter_park" in data:
        chosen["winter_mode"] = data["winter_park"]
    return chosen
