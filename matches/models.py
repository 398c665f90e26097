"""Matches and their append-only event log.

A match is *setup + seed + answers*. The engine replays those to the same events. So the stored
events can always be verified.

A played match is first *recorded*. Its events are stored, each with the ``visible_at`` that paces
it for watching. Its result is kept aside. The match is *released* once its last event is visible.
Only then does its result reach the tournament (trophy, fans, decks) and any view.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from matches.engine.model import RULES_VERSION


class MatchStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    WAITING = "waiting", _("Waiting for an answer")
    RECORDED = "recorded", _("Recorded, events being released")
    FINISHED = "finished", _("Finished (released)")
    FAILED = "failed", _("Failed (could not be played)")


class Match(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="matches",
        verbose_name=_("tournament"),
    )
    round = models.PositiveSmallIntegerField(
        help_text=_("1-7, 8 = the Final."), verbose_name=_("round")
    )
    park = models.CharField(max_length=8, verbose_name=_("park"))
    kind = models.CharField(
        max_length=8, default="normal", help_text=_("normal or winter"), verbose_name=_("kind")
    )
    seat_a = models.ForeignKey(
        "tournaments.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("seat a")
    )
    seat_b = models.ForeignKey(
        "tournaments.Seat", on_delete=models.CASCADE, related_name="+", verbose_name=_("seat b")
    )
    seed = models.BigIntegerField(verbose_name=_("seed"))
    snapshot = models.ForeignKey(
        "cards.CardSnapshot",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The frozen card data this match is played with."),
        verbose_name=_("snapshot"),
    )
    status = models.CharField(
        max_length=10,
        choices=MatchStatus.choices,
        default=MatchStatus.SCHEDULED,
        verbose_name=_("status"),
    )
    setup = models.JSONField(
        default=dict,
        help_text=_("Engine input; holds deck orders (secret)."),
        verbose_name=_("setup"),
    )
    answers = models.JSONField(default=list, verbose_name=_("answers"))
    question = models.JSONField(
        null=True, blank=True, help_text=_("The pending card question."), verbose_name=_("question")
    )
    question_deadline = models.DateTimeField(
        null=True, blank=True, verbose_name=_("question deadline")
    )
    winner = models.ForeignKey(
        "tournaments.Seat",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("winner"),
    )
    reason = models.CharField(max_length=32, blank=True, verbose_name=_("reason"))
    fans_gained = models.JSONField(default=dict, verbose_name=_("fans gained"))
    outcome = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The recorded result kept until release: decks after, pile cards taken, removed."
        ),
        verbose_name=_("outcome"),
    )
    event_counts = models.JSONField(
        default=dict,
        help_text=_("Events each viewer class may see: public, and side A's and B's own as well."),
        verbose_name=_("event counts"),
    )
    events_stored = models.PositiveIntegerField(
        default=0,
        help_text=_(
            "How many of its events are stored: those before a pending question, then all."
        ),
        verbose_name=_("events stored"),
    )
    result_visible_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the last event is released (the result with it)."),
        verbose_name=_("result visible at"),
    )
    error = models.TextField(
        blank=True, help_text=_("Why the match could not be played."), verbose_name=_("error")
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text=_("Failed attempts to play."), verbose_name=_("attempts")
    )
    verified = models.BooleanField(
        null=True,
        blank=True,
        help_text=_("Re-running setup + seed + answers gave the same events."),
        verbose_name=_("verified"),
    )
    rules_version = models.PositiveSmallIntegerField(
        default=RULES_VERSION,
        help_text=_(
            "The rules version the match is played and replayed by (engine RULES_VERSIONS)."
        ),
        verbose_name=_("rules version"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    round_open_besides: bool | None = None
    """Not stored: whether another match of the round was unfinished when this one was read
    under the tournament's lock (``tournaments.services.matchplay``); ``None``: not read."""

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "park"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "park"], name="match_round_park_unique"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["recorded", "finished"], winner__isnull=False)
                | ~Q(status__in=["recorded", "finished"]),
                name="match_finished_has_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} (round {self.round}, {self.park})"


class MatchEvent(models.Model):
    # The unique (match, seq) index serves every lookup by match, and the rows are written only
    # by the transaction holding the match's lock, the match's deletion removes them (the ORM's
    # cascade): no index and no foreign-key trigger of their own, which per row doubled the
    # server's CPU writing a match's log (docs/performance.md, "the logs' rows").
    match = models.ForeignKey(
        Match,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        db_constraint=False,
        verbose_name=_("match"),
    )
    seq = models.PositiveIntegerField(verbose_name=_("seq"))
    kind = models.CharField(max_length=24, verbose_name=_("kind"))
    payload = models.JSONField(default=dict, verbose_name=_("payload"))
    visible_at = models.DateTimeField(verbose_name=_("visible at"))

    class Meta:
        verbose_name = _("match event")
        verbose_name_plural = _("match events")
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_match_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} event {self.seq} ({self.kind})"


class MatchEventArchive(models.Model):
    """A finished match's events after its tournament's logs were archived.

    ``manage.py archive_events`` archives them. It keeps one gzip-compressed JSON list of the
    payloads, in seq order, instead of a row each. Replays and verification read it as they read the
    rows (``matches.archive``)."""

    match = models.OneToOneField(
        Match,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="event_archive",
        verbose_name=_("match"),
    )
    events = models.BinaryField(verbose_name=_("events"))
    count = models.PositiveIntegerField(verbose_name=_("count"))
    archived_at = models.DateTimeField(auto_now_add=True, verbose_name=_("archived at"))

    class Meta:
        verbose_name = _("archived match events")
        verbose_name_plural = _("archived match events")

    def __str__(self) -> str:
        return f"Match {self.match_id} events, archived ({self.count})"
