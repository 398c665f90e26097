"""Leagues and what they hold.

A league has seasons, members and the tournaments that joined it. Those tournaments produce
per-tournament results, standings, ratings and their history. Webhook endpoints and deliveries live
here too.

The links to the tournaments core (``LeagueTournament``, ``MemberSeat``) live here as well. Each is
one-to-one with a core row. So the core's tables and migrations know nothing of leagues.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from leagues.rules.scoring import DEFAULT_SCORING


def default_scoring() -> dict[str, object]:
    return dict(DEFAULT_SCORING)


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public (listed)")
    UNLISTED = "unlisted", _("Unlisted (reachable by its slug)")


class League(models.Model):
    name = models.CharField(max_length=80, verbose_name=_("name"))
    slug = models.SlugField(max_length=60, unique=True, verbose_name=_("slug"))
    description = models.TextField(blank=True, verbose_name=_("description"))
    visibility = models.CharField(
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        verbose_name=_("visibility"),
    )
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="leagues",
        blank=True,
        help_text=_("Users with the tournaments.organize permission who may write to this league."),
        verbose_name=_("organizers"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A run of tournaments sharing their options and one scoring table."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(max_length=80, verbose_name=_("name"))
    starts_on = models.DateField(null=True, blank=True, verbose_name=_("starts on"))
    ends_on = models.DateField(null=True, blank=True, verbose_name=_("ends on"))
    scoring = models.JSONField(
        default=default_scoring, help_text=_("Points by placement."), verbose_name=_("scoring")
    )
    basic_set = models.CharField(max_length=40, default="City", verbose_name=_("basic set"))
    additional_sets = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The 5 additional sets; empty: drawn per tournament."),
        verbose_name=_("additional sets"),
    )
    beach_cup = models.BooleanField(default=False, verbose_name=_("beach cup"))
    winter_mode = models.CharField(max_length=8, default="off", verbose_name=_("winter mode"))
    robot_difficulty = models.PositiveSmallIntegerField(
        default=1, verbose_name=_("robot difficulty")
    )
    bots_allowed = models.BooleanField(default=True, verbose_name=_("bots allowed"))
    advice_allowed = models.BooleanField(
        default=False,
        help_text=_("Whether a draft advisor may help this season's players."),
        verbose_name=_("advice allowed"),
    )
    join_code = models.CharField(
        max_length=12,
        unique=True,
        help_text=_("Lets a host open a tournament in this season."),
        verbose_name=_("join code"),
    )
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Archived: no tournament opens in it any more."),
        verbose_name=_("archived at"),
    )
    closed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("Its results are closed: nothing changes them until it is reopened."),
        verbose_name=_("closed at"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

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
    HUMAN = "human", _("Human")
    BOT = "bot", _("Bot")


class Member(models.Model):
    """A person (or a bot) followed across a league's tournaments.

    A human member's token is claimed once, with the claim code the organizer was given. Both are
    stored only as hashes. A bot becomes a member of its own kind when its tournament is recorded.
    Each name *and strength* is its own member: "Bot Cog (rookie)" is not "Bot Cog (steady)".
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="members", verbose_name=_("league")
    )
    handle = models.CharField(max_length=40, verbose_name=_("handle"))
    kind = models.CharField(
        max_length=5, choices=MemberKind.choices, default=MemberKind.HUMAN, verbose_name=_("kind")
    )
    bot_level = models.CharField(
        max_length=9,
        blank=True,
        help_text=_("A bot's strength (rookie, steady, champion)."),
        verbose_name=_("bot level"),
    )
    claim_hash = models.CharField(max_length=64, blank=True, verbose_name=_("claim hash"))
    token_hash = models.CharField(
        max_length=64, blank=True, db_index=True, verbose_name=_("token hash")
    )
    claimed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

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


class FormerHandle(models.Model):
    """A handle a member was renamed from. Its old addresses redirect to the member's current one.

    A live handle always wins. A member that takes the handle ends the redirect, and this row is
    deleted. That member may be a new one, one renamed to it, or the same member renamed back.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="former_handles", verbose_name=_("league")
    )
    handle = models.CharField(max_length=40, verbose_name=_("handle"))
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="former_handles", verbose_name=_("member")
    )
    renamed_at = models.DateTimeField(auto_now=True, verbose_name=_("renamed at"))

    class Meta:
        verbose_name = _("former handle")
        verbose_name_plural = _("former handles")
        constraints = [
            models.UniqueConstraint(
                "league", Lower("handle"), name="former_handle_unique_ignoring_case"
            ),
        ]

    def __str__(self) -> str:
        return self.handle


class LeagueTournament(models.Model):
    """A tournament that joined a season when it was created.

    ``recorded_at`` is set once its result entered the season, exactly once. ``recorded_seq`` is its
    order among the league's results.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="league_link",
        verbose_name=_("tournament"),
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="links", verbose_name=_("season")
    )
    recorded_at = models.DateTimeField(null=True, blank=True, verbose_name=_("recorded at"))
    recorded_seq = models.PositiveIntegerField(
        null=True, blank=True, verbose_name=_("recorded seq")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("league tournament")
        verbose_name_plural = _("league tournaments")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Tournament {self.tournament_id} in season {self.season_id}"


class MemberSeat(models.Model):
    seat = models.OneToOneField(
        "tournaments.Seat",
        on_delete=models.CASCADE,
        related_name="member_link",
        verbose_name=_("seat"),
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="seats", verbose_name=_("member")
    )

    class Meta:
        verbose_name = _("member's seat")
        verbose_name_plural = _("members' seats")

    def __str__(self) -> str:
        return f"Seat {self.seat_id} is member {self.member_id}"


class Result(models.Model):
    """One member's result in one recorded tournament. Standings are summed from these."""

    link = models.ForeignKey(
        LeagueTournament, on_delete=models.CASCADE, related_name="results", verbose_name=_("link")
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="results", verbose_name=_("member")
    )
    seat = models.SmallIntegerField(verbose_name=_("seat"))
    place = models.PositiveSmallIntegerField(verbose_name=_("place"))
    points = models.IntegerField(verbose_name=_("points"))
    fans = models.PositiveIntegerField(verbose_name=_("fans"))
    champion = models.BooleanField(default=False, verbose_name=_("champion"))
    finalist = models.BooleanField(default=False, verbose_name=_("finalist"))

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

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", verbose_name=_("season")
    )
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="standings", verbose_name=_("member")
    )
    points = models.IntegerField(default=0, verbose_name=_("points"))
    wins = models.PositiveIntegerField(default=0, verbose_name=_("wins"))
    finals = models.PositiveIntegerField(default=0, verbose_name=_("finals"))
    fans = models.PositiveIntegerField(default=0, verbose_name=_("fans"))
    played = models.PositiveIntegerField(default=0, verbose_name=_("played"))

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "member"], name="standing_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.member} in season {self.season_id}: {self.points}"


class Rating(models.Model):
    """A member's skill in a league: ``mu`` and its uncertainty.

    The model is Weng-Lin Plackett-Luce.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("league")
    )
    member = models.OneToOneField(
        Member, on_delete=models.CASCADE, related_name="rating", verbose_name=_("member")
    )
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))
    tournaments = models.PositiveIntegerField(default=0, verbose_name=_("tournaments"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.member}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """A member's rating before and after one recorded tournament."""

    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("member")
    )
    link = models.ForeignKey(
        LeagueTournament,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("link"),
    )
    mu_before = models.FloatField(verbose_name=_("mu before"))
    sigma_before = models.FloatField(verbose_name=_("sigma before"))
    mu = models.FloatField(verbose_name=_("mu"))
    sigma = models.FloatField(verbose_name=_("sigma"))

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
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("league")
    )
    url = models.URLField(max_length=400, verbose_name=_("url"))
    secret = models.CharField(
        max_length=64, help_text=_("The HMAC-SHA256 key; shown once."), verbose_name=_("secret")
    )
    # blank: an empty list is a valid value, and without it the admin refuses to save one.
    events = models.JSONField(
        default=list,
        blank=True,
        help_text=_("Event kinds sent; empty: every kind."),
        verbose_name=_("events"),
    )
    active = models.BooleanField(default=True, verbose_name=_("active"))
    last_sequence = models.PositiveIntegerField(
        default=0,
        help_text=_("The sequence number of the last event logged for it."),
        verbose_name=_("last sequence"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return f"{self.url} ({self.league})"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    DELIVERED = "delivered", _("Delivered")
    FAILED = "failed", _("Failed (out of attempts)")


class WebhookDelivery(models.Model):
    """One event for one endpoint. The admin shows this log and resends from it."""

    endpoint = models.ForeignKey(
        WebhookEndpoint,
        on_delete=models.CASCADE,
        related_name="deliveries",
        verbose_name=_("endpoint"),
    )
    kind = models.CharField(max_length=32, verbose_name=_("kind"))
    sequence = models.PositiveIntegerField(
        help_text=_("The event's number for its endpoint."), verbose_name=_("sequence")
    )
    idempotency_key = models.CharField(max_length=120, verbose_name=_("idempotency key"))
    payload = models.JSONField(default=dict, verbose_name=_("payload"))
    status = models.CharField(
        max_length=9,
        choices=DeliveryStatus.choices,
        default=DeliveryStatus.PENDING,
        verbose_name=_("status"),
    )
    attempts = models.PositiveIntegerField(default=0, verbose_name=_("attempts"))
    last_status = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("last status")
    )
    last_error = models.TextField(blank=True, verbose_name=_("last error"))
    last_attempt_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last attempt at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    delivered_at = models.DateTimeField(null=True, blank=True, verbose_name=_("delivered at"))
    resent_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When it was last sent again by hand."),
        verbose_name=_("resent at"),
    )
    resent_after = models.PositiveIntegerField(
        default=0,
        help_text=_("Attempts made before it was last sent again: each resend has its own."),
        verbose_name=_("resent after"),
    )

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
    DISQUALIFY = "disqualify", _("Disqualify a member (from a tournament or a season)")
    MANUAL_RESULT = "manual_result", _("Enter a tournament's places by hand")
    FORFEIT = "forfeit", _("A member forfeits one match")
    NO_SHOW = "no_show", _("A member did not check in (a bot took its seat)")


class Correction(models.Model):
    """An organizer's correction of recorded results, with its reason.

    It is append-only: never edited or deleted. A later correction supersedes. Recording and
    recomputing apply every correction of a tournament, in order. They apply on top of what the
    tournament itself produced.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="corrections", verbose_name=_("league")
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="corrections", verbose_name=_("season")
    )
    link = models.ForeignKey(
        LeagueTournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="corrections",
        help_text=_("The tournament corrected; empty: the whole season (a disqualification)."),
        verbose_name=_("link"),
    )
    member = models.ForeignKey(
        Member,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="corrections",
        verbose_name=_("member"),
    )
    match = models.ForeignKey(
        "matches.Match",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("A forfeit: the match its member forfeits."),
        verbose_name=_("match"),
    )
    kind = models.CharField(max_length=13, choices=CorrectionKind.choices, verbose_name=_("kind"))
    reason = models.TextField(verbose_name=_("reason"))
    places = models.JSONField(
        default=dict,
        blank=True,
        help_text=_("A manual result: member id → place."),
        verbose_name=_("places"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.kind} in season {self.season_id}: {self.reason[:40]}"


class ClosureAction(models.TextChoices):
    CLOSE = "close", _("Closed the season's results")
    REOPEN = "reopen", _("Reopened the season's results")


class SeasonClosure(models.Model):
    """An organizer closed or reopened a season's results, and why.

    It is append-only: the season's audit of closing. ``Season.closed_at`` holds the current state.
    """

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="closures", verbose_name=_("season")
    )
    action = models.CharField(max_length=6, choices=ClosureAction.choices, verbose_name=_("action"))
    reason = models.TextField(verbose_name=_("reason"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("season closure")
        verbose_name_plural = _("season closures")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.action} season {self.season_id}: {self.reason[:40]}"


class ScheduleOutcome(models.TextChoices):
    PENDING = "", _("Not yet")
    STARTED = "started", _("Started by itself")
    CANCELLED = "cancelled", _("Cancelled (check-in incomplete)")
    SKIPPED = "skipped", _("Started or cancelled by hand before its time")


class NoShow(models.TextChoices):
    CANCEL = "cancel", _("Cancel the tournament")
    BOT = "bot", _("A bot takes each absent player's seat")


class Schedule(models.Model):
    """A league tournament's scheduled start (``leagues.services.schedules``).

    Its seats check in from ``checkin_opens_at``. At ``starts_at`` it starts by itself if it is
    ready. Ready means every seat is taken and every player checked in. A player who did not check
    in cancels it, with the reason. With ``no_show`` ``bot``, a bot of ``bot_level`` replaces that
    player instead.
    """

    link = models.OneToOneField(
        LeagueTournament, on_delete=models.CASCADE, related_name="schedule", verbose_name=_("link")
    )
    starts_at = models.DateTimeField(db_index=True, verbose_name=_("starts at"))
    checkin_opens_at = models.DateTimeField(verbose_name=_("checkin opens at"))
    no_show = models.CharField(
        max_length=6,
        choices=NoShow.choices,
        default=NoShow.CANCEL,
        help_text=_("What a player who did not check in by the start time causes."),
        verbose_name=_("no show"),
    )
    bot_level = models.CharField(
        max_length=9,
        default="rookie",
        help_text=_("The strength of a bot that takes a seat."),
        verbose_name=_("bot level"),
    )
    outcome = models.CharField(
        max_length=9,
        choices=ScheduleOutcome.choices,
        default=ScheduleOutcome.PENDING,
        blank=True,
        verbose_name=_("outcome"),
    )
    reason = models.CharField(max_length=200, blank=True, verbose_name=_("reason"))
    settled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("settled at"))

    class Meta:
        verbose_name = _("schedule")
        verbose_name_plural = _("schedules")

    def __str__(self) -> str:
        return f"Start of tournament link {self.link_id} at {self.starts_at:%Y-%m-%d %H:%M}"


class CheckIn(models.Model):
    """A seat's check-in for a scheduled start. A bot is always ready and never checks in."""

    schedule = models.ForeignKey(
        Schedule, on_delete=models.CASCADE, related_name="checkins", verbose_name=_("schedule")
    )
    seat = models.OneToOneField(
        "tournaments.Seat",
        on_delete=models.CASCADE,
        related_name="league_checkin",
        verbose_name=_("seat"),
    )
    at = models.DateTimeField(verbose_name=_("at"))

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")

    def __str__(self) -> str:
        return f"Seat {self.seat_id} checked in"


class RequestStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an admin")
    APPROVED = "approved", _("Approved")
    DECLINED = "declined", _("Declined")


class OrganizerRequest(models.Model):
    """A person's sign-up for an organizer account (``leagues.services.accounts``).

    Its user and token exist from the sign-up. The token acts once an admin approves the request.
    Approval grants ``tournaments.organize``. The request is kept after the decision: who decided,
    when, why.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="organizer_request",
        verbose_name=_("user"),
    )
    about = models.TextField(
        help_text=_("Who is asking and which leagues they will run."), verbose_name=_("about")
    )
    status = models.CharField(
        max_length=8,
        choices=RequestStatus.choices,
        default=RequestStatus.PENDING,
        verbose_name=_("status"),
    )
    reason = models.TextField(
        blank=True, help_text=_("Why it was declined."), verbose_name=_("reason")
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("organizer request")
        verbose_name_plural = _("organizer requests")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.user} ({self.status})"


class JoinStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an organizer")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")


class JoinRequest(models.Model):
    """A player's request to join a league as a member (``leagues.services.joining``).

    Its token, stored hashed, reads the request's status. Accepted, it makes a member. That member's
    claim code is derived from the token. So only the token's holder can read it. Nothing is kept in
    clear. The request is kept after the decision. It is the league's audit of who was let in, by
    whom, when.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("league")
    )
    handle = models.CharField(max_length=40, verbose_name=_("handle"))
    message = models.TextField(blank=True, verbose_name=_("message"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    claim_hash = models.CharField(max_length=64, verbose_name=_("claim hash"))
    status = models.CharField(
        max_length=8,
        choices=JoinStatus.choices,
        default=JoinStatus.PENDING,
        verbose_name=_("status"),
    )
    member = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="join_requests",
        verbose_name=_("member"),
    )
    reason = models.TextField(blank=True, verbose_name=_("reason"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["id"]
        constraints = [
            # One pending request per handle (whatever its case) in a league.
            models.UniqueConstraint(
                "league",
                Lower("handle"),
                condition=Q(status="pending"),
                name="join_request_pending_handle",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.handle} asks to join {self.league} ({self.status})"


class EmbedSite(models.Model):
    """An origin (``https://club.example``) whose pages may frame the league's standings widget.

    The widget is at ``/leagues/<slug>/embed/``. These rows make its ``Content-Security-Policy:
    frame-ancestors``.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="embed_sites", verbose_name=_("league")
    )
    origin = models.CharField(
        max_length=200,
        help_text=_("scheme://host[:port], e.g. https://club.example (no path)."),
        verbose_name=_("origin"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("embedding site")
        verbose_name_plural = _("embedding sites")
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "origin"], name="embed_site_unique"),
        ]

    def __str__(self) -> str:
        return self.origin


class OrganizerChangeKind(models.TextChoices):
    ADDED = "added", _("added")
    REMOVED = "removed", _("removed")


class OrganizerChange(models.Model):
    """A co-organizer added to a league or removed from it, by whom and when.

    It is append-only. Names are kept as they were. So a user deleted later leaves the record whole.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="organizer_changes", verbose_name=_("league")
    )
    change = models.CharField(
        max_length=10, choices=OrganizerChangeKind.choices, verbose_name=_("change")
    )
    username = models.CharField(max_length=150, verbose_name=_("organizer"))
    by = models.CharField(max_length=150, verbose_name=_("by"))
    at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("organizer change")
        verbose_name_plural = _("organizer changes")
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.username} {self.change} in {self.league_id} by {self.by}"
