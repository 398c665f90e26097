"""Leagues, their seasons and members, the tournaments that joined them, and what they produced:
per-tournament results, standings, ratings and their history, webhook endpoints and deliveries.

The links to the tournaments core (``LeagueTournament``, ``MemberSeat``) live here, one-to-one
with the core's rows, so the core's tables and migrations know nothing of leagues.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournaments.leagues.rules import DEFAULT_SCORING


def default_scoring() -> dict[str, object]:
    return dict(DEFAULT_SCORING)


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public (listed)"
    UNLISTED = "unlisted", "Unlisted (reachable by its slug)"


class League(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="leagues",
        blank=True,
        help_text="Users with the tournaments.organize permission who may write to this league.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A run of tournaments that share their options and one scoring table."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    scoring = models.JSONField(default=default_scoring, help_text="Points by placement.")
    basic_set = models.CharField(max_length=40, default="City")
    additional_sets = models.JSONField(
        null=True, blank=True, help_text="The 5 additional sets; empty: drawn per tournament."
    )
    beach_cup = models.BooleanField(default=False)
    winter_mode = models.CharField(max_length=8, default="off")
    robot_difficulty = models.PositiveSmallIntegerField(default=1)
    bots_allowed = models.BooleanField(default=True)
    advice_allowed = models.BooleanField(
        default=False, help_text="Whether a draft advisor may help this season's players."
    )
    join_code = models.CharField(
        max_length=12, unique=True, help_text="Lets a host open a tournament in this season."
    )
    archived_at = models.DateTimeField(
        null=True, blank=True, help_text="Archived: no tournament opens in it any more."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["league", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(robot_difficulty__gte=1, robot_difficulty__lte=5),
                name="season_robot_difficulty",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} — {self.name}"


class MemberKind(models.TextChoices):
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"


class Member(models.Model):
    """A person (or a bot) followed across a league's tournaments.

    A human member's token is claimed once with the claim code the organizer was given; both are
    stored only as hashes. Bots become members of their own kind when their tournament is
    recorded, one per name *and strength* ("Bot Cog (rookie)" is not "Bot Cog (steady)").
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    handle = models.CharField(max_length=40)
    kind = models.CharField(max_length=5, choices=MemberKind.choices, default=MemberKind.HUMAN)
    bot_level = models.CharField(
        max_length=9, blank=True, help_text="A bot's strength (rookie, steady, champion)."
    )
    claim_hash = models.CharField(max_length=64, blank=True)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["handle"]
        constraints = [
            models.UniqueConstraint(fields=["league", "handle"], name="member_handle_unique"),
            # Ann and ann are one person to the people reading the standings.
            models.UniqueConstraint(
                "league", Lower("handle"), name="member_handle_unique_ignoring_case"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.handle} ({self.kind})"


class LeagueTournament(models.Model):
    """A tournament that joined a season when it was created; ``recorded_at`` once its result
    entered the season (exactly once), ``recorded_seq`` its order among the league's results."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="league_link"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="links")
    recorded_at = models.DateTimeField(null=True, blank=True)
    recorded_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("league tournament")
        verbose_name_plural = _("league tournaments")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} in season {self.season_id}"


class MemberSeat(models.Model):
    seat = models.OneToOneField(
        "tournaments.Seat", on_delete=models.CASCADE, related_name="member_link"
    )
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        verbose_name = _("member's seat")
        verbose_name_plural = _("members' seats")

    def __str__(self) -> str:
        return f"Seat {self.seat_id} is member {self.member_id}"


class Result(models.Model):
    """One member's result in one recorded tournament: the source standings are summed from."""

    link = models.ForeignKey(LeagueTournament, on_delete=models.CASCADE, related_name="results")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="results")
    seat = models.SmallIntegerField()
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    fans = models.PositiveIntegerField()
    champion = models.BooleanField(default=False)
    finalist = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["link", "place", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["link", "member"], name="result_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.member} placed {self.place} in tournament link {self.link_id}"


class Standing(models.Model):
    """A member's running totals in a season (the incremental standings)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="standings")
    points = models.IntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    finals = models.PositiveIntegerField(default=0)
    fans = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "member"], name="standing_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.member} in season {self.season_id}: {self.points}"


class Rating(models.Model):
    """A member's skill in a league (Weng-Lin Plackett-Luce): ``mu`` and its uncertainty."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    tournaments = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.member}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """The rating before and after one recorded tournament (a member's rating history)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_changes")
    link = models.ForeignKey(
        LeagueTournament, on_delete=models.CASCADE, related_name="rating_changes"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["link__recorded_seq", "member"]
        constraints = [
            models.UniqueConstraint(fields=["member", "link"], name="rating_change_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.member} after tournament link {self.link_id}"


class WebhookEndpoint(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=400)
    secret = models.CharField(max_length=64, help_text="The HMAC-SHA256 key; shown once.")
    # blank: an empty list is a valid value, and without it the admin refuses to save one.
    events = models.JSONField(
        default=list, blank=True, help_text="Event kinds sent; empty: every kind."
    )
    active = models.BooleanField(default=True)
    last_sequence = models.PositiveIntegerField(
        default=0, help_text="The sequence number of the last event logged for it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return f"{self.url} ({self.league})"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed (out of attempts)"


class WebhookDelivery(models.Model):
    """One event for one endpoint: the log the admin shows and resends from."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    kind = models.CharField(max_length=32)
    sequence = models.PositiveIntegerField(help_text="The event's number for its endpoint.")
    idempotency_key = models.CharField(max_length=120)
    payload = models.JSONField(default=dict)
    status = models.CharField(
        max_length=9, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "idempotency_key"], name="delivery_key_unique"
            ),
            models.UniqueConstraint(
                fields=["endpoint", "sequence"], name="delivery_sequence_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to endpoint {self.endpoint_id} ({self.status})"


class CorrectionKind(models.TextChoices):
    DISQUALIFY = "disqualify", "Disqualify a member (from a tournament or a season)"
    MANUAL_RESULT = "manual_result", "Enter a tournament's places by hand"
    FORFEIT = "forfeit", "A member forfeits one match"
    NO_SHOW = "no_show", "A member did not check in (a bot took its seat)"


class Correction(models.Model):
    """An organizer's correction of recorded results, with its reason: append-only (never
    edited or deleted; a later correction supersedes). Recording and recomputing apply every
    correction of a tournament, in order, on top of what the tournament itself produced."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="corrections")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="corrections")
    link = models.ForeignKey(
        LeagueTournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="corrections",
        help_text="The tournament corrected; empty: the whole season (a disqualification).",
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, null=True, blank=True, related_name="corrections"
    )
    match = models.ForeignKey(
        "matches.Match",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="A forfeit: the match its member forfeits.",
    )
    kind = models.CharField(max_length=13, choices=CorrectionKind.choices)
    reason = models.TextField()
    places = models.JSONField(
        default=dict, blank=True, help_text="A manual result: member id → place."
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} in season {self.season_id}: {self.reason[:40]}"


class ScheduleOutcome(models.TextChoices):
    PENDING = "", "Not yet"
    STARTED = "started", "Started by itself"
    CANCELLED = "cancelled", "Cancelled (check-in incomplete)"
    SKIPPED = "skipped", "Started or cancelled by hand before its time"


class NoShow(models.TextChoices):
    CANCEL = "cancel", "Cancel the tournament"
    BOT = "bot", "A bot takes each absent player's seat"


class Schedule(models.Model):
    """A league tournament's scheduled start: its seats check in from ``checkin_opens_at``; at
    ``starts_at`` it starts by itself if every seat is taken and every player checked in; a
    player who did not check in cancels it with the reason, or (``no_show`` ``bot``) is
    replaced by a bot of ``bot_level`` (``tournaments.leagues.schedules``)."""

    link = models.OneToOneField(LeagueTournament, on_delete=models.CASCADE, related_name="schedule")
    starts_at = models.DateTimeField(db_index=True)
    checkin_opens_at = models.DateTimeField()
    no_show = models.CharField(
        max_length=6,
        choices=NoShow.choices,
        default=NoShow.CANCEL,
        help_text="What a player who did not check in by the start time causes.",
    )
    bot_level = models.CharField(
        max_length=9, default="rookie", help_text="The strength of a bot that takes a seat."
    )
    outcome = models.CharField(
        max_length=9, choices=ScheduleOutcome.choices, default=ScheduleOutcome.PENDING, blank=True
    )
    reason = models.CharField(max_length=200, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("schedule")
        verbose_name_plural = _("schedules")

    def __str__(self) -> str:
        return f"Start of tournament link {self.link_id} at {self.starts_at:%Y-%m-%d %H:%M}"


class CheckIn(models.Model):
    """A seat's check-in for a scheduled start (a bot is always ready and never checks in)."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="checkins")
    seat = models.OneToOneField(
        "tournaments.Seat", on_delete=models.CASCADE, related_name="league_checkin"
    )
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")

    def __str__(self) -> str:
        return f"Seat {self.seat_id} checked in"
