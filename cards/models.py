"""Card sets and card designs: the catalogue's fields, plus the machine-readable effect."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from cards.validation import card_errors, card_set_errors


class Box(models.TextChoices):
    BASE = "base", _("Challengers! (base box)")
    BEACH_CUP = "beach_cup", _("Beach Cup")


class SetKind(models.TextChoices):
    BASIC = "basic", _("Basic set")
    ADDITIONAL = "additional", _("Additional set")
    STARTER = "starter", _("Starter decks")
    ROBOT = "robot", _("Robot")


class Level(models.TextChoices):
    S = "S", _("S (starter)")
    A = "A", "A"
    B = "B", "B"
    C = "C", "C"
    R = "R", _("R (Robot hard)")
    SOLO = "SOLO", _("SOLO (Robot solo challenge)")


class Timing(models.TextChoices):
    PLAIN = "plain", _("No effect")
    ON_REVEAL = "on_reveal", _("On reveal")
    TAKES_FLAG = "takes_flag", _("Takes the flag")
    DURING_ATTACK = "during_attack", _("During the attack")
    FROM_BENCH = "from_bench", _("From the bench")
    IN_FLAG_POSSESSION = "in_flag_possession", _("In flag possession")
    FLAG_LOSS = "flag_loss", _("Flag loss")
    WHEN_PICKED = "when_picked", _("When picked")
    NO_FLAG_WIN = "no_flag_win", _("No flag win")
    SPECIAL = "special", _("Special")


class Confidence(models.TextChoices):
    HIGH = "high", _("High (checked against the publisher's card overview)")
    MEDIUM_HIGH = "medium-high", _("Medium-high")
    MEDIUM = "medium", _("Medium (one fan transcription)")
    LOW = "low", _("Low")


class CardSet(models.Model):
    name = models.CharField(_("name"), max_length=60, unique=True)
    box = models.CharField(_("box"), max_length=16, choices=Box.choices)
    kind = models.CharField(_("kind"), max_length=16, choices=SetKind.choices)
    expected_copies = models.PositiveSmallIntegerField(
        _("expected copies"),
        help_text=_("Cards the printed set holds (40 additional, 20 basic, 48 starter, 19 Robot)."),
    )
    starter_decks = models.PositiveSmallIntegerField(
        _("starter decks"),
        null=True,
        blank=True,
        help_text=_("Starter sets: how many decks copies per deck make."),
    )
    note = models.TextField(_("note"), blank=True)
    position = models.PositiveSmallIntegerField(
        _("position"), default=0, help_text=_("Order in the catalogue.")
    )
    retired = models.BooleanField(
        _("retired"),
        default=False,
        help_text=_("Kept for the history of past tournaments, never offered to new ones."),
    )
    curated = models.BooleanField(
        _("curated"),
        default=False,
        help_text=_("Edited in admin: load_catalogue leaves it alone (unless --force)."),
    )
    # Every change with its values, its author and its reason (admin's History, cards.history).
    history = HistoricalRecords(cascade_delete_history=False)

    class Meta:
        verbose_name = _("card set")
        verbose_name_plural = _("card sets")
        ordering = ["position", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(box__in=Box.values), name="cardset_box_known"),
            models.CheckConstraint(condition=Q(kind__in=SetKind.values), name="cardset_kind_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """The catalogue's rules, all in ``cards.validation``."""
        errors = card_set_errors(self)
        if errors:
            raise ValidationError(errors)


class Card(models.Model):
    card_set = models.ForeignKey(
        CardSet, on_delete=models.PROTECT, related_name="cards", verbose_name=_("card set")
    )
    name = models.CharField(_("name"), max_length=60)
    level = models.CharField(_("level"), max_length=4, choices=Level.choices)
    power = models.SmallIntegerField(
        _("power"), null=True, blank=True, help_text=_("Base power; empty if round.")
    )
    power_is_round = models.BooleanField(
        _("power is round"),
        default=False,
        help_text=_("Base power = the round being played (Robot Cyborg)."),
    )
    copies = models.PositiveSmallIntegerField(_("copies"), null=True, blank=True)
    copies_per_starter_deck = models.PositiveSmallIntegerField(
        _("copies per starter deck"), null=True, blank=True
    )
    keyword = models.CharField(_("keyword"), max_length=40, blank=True)
    timing = models.CharField(
        _("timing"), max_length=20, choices=Timing.choices, default=Timing.PLAIN
    )
    effect = models.TextField(
        _("effect"), blank=True, help_text=_("A paraphrase of the printed effect.")
    )
    # A default, so that every form that creates a card (the set page's rows included) can save:
    # a card typed in by a curator is one transcription until checked against the publisher's.
    confidence = models.CharField(
        _("confidence"), max_length=12, choices=Confidence.choices, default=Confidence.MEDIUM
    )
    note = models.TextField(_("note"), blank=True)
    # NULL, not "", means "no effect": the engine, the loader and the constraints all say None.
    effect_code = models.CharField(  # noqa: DJ001
        _("effect code"), max_length=60, null=True, blank=True
    )
    effect_params = models.JSONField(_("effect parameters"), default=dict, blank=True)
    translations = models.JSONField(
        _("translations"),
        default=dict,
        blank=True,
        help_text=_(
            'Name and effect per language: {"zh-hans": {"name": …, "effect": …}, "ru": …}.'
        ),
    )
    retired = models.BooleanField(
        _("retired"),
        default=False,
        help_text=_("Kept for the history of past tournaments, left out of new ones' card data."),
    )
    curated = models.BooleanField(
        _("curated"),
        default=False,
        help_text=_("Edited in admin: load_catalogue leaves it alone (unless --force)."),
    )
    history = HistoricalRecords(cascade_delete_history=False)  # as the set's

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["card_set__position", "level", "power", "name"]
        constraints = [
            models.UniqueConstraint(fields=["card_set", "name"], name="card_unique_name_in_set"),
            models.CheckConstraint(condition=Q(level__in=Level.values), name="card_level_known"),
            models.CheckConstraint(
                condition=Q(power__isnull=True) | Q(power__gte=0), name="card_power_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(power_is_round=True, power__isnull=True)
                | Q(power_is_round=False, power__isnull=False),
                name="card_power_or_round",
            ),
            models.CheckConstraint(
                condition=Q(copies__isnull=True) | Q(copies__gte=1), name="card_copies_positive"
            ),
            models.CheckConstraint(condition=Q(timing__in=Timing.values), name="card_timing_known"),
            models.CheckConstraint(
                condition=Q(confidence__in=Confidence.values), name="card_confidence_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_set_id and self.card_set.name})"

    @property
    def box(self) -> str:
        return self.card_set.box

    def translated(self, field: str, language: str | None = None) -> str:
        """``name`` or ``effect`` in ``language`` (default: the active one).

        English when the catalogue has no translation of it."""
        texts = (self.translations or {}).get(language or get_language() or "en") or {}
        english: str = getattr(self, field)
        text = texts.get(field) if isinstance(texts, dict) else None
        return text if isinstance(text, str) and text else english

    def clean(self) -> None:
        """The catalogue's rules, all in ``cards.validation``.

        Every path into the catalogue asks them."""
        self.effect_code = self.effect_code or None  # NULL, not "", means "no effect"
        errors = card_errors(self)
        if errors:
            raise ValidationError(errors)


class CardSnapshot(models.Model):
    """The card data a tournament plays with, frozen when it starts.

    A snapshot is never edited afterwards. So an admin edit reaches only later tournaments. Equal
    content is stored once (``digest``). Most tournaments thus share one snapshot and its cached
    engine specs.
    """

    digest = models.CharField(
        max_length=64, unique=True, help_text=_("SHA-256 of the entries."), verbose_name=_("digest")
    )
    entries = models.JSONField(
        help_text=_("Every card design, as the engine reads it."), verbose_name=_("entries")
    )
    all_sets = models.JSONField(
        help_text=_("The basic and additional set names (Rainbow icons)."),
        verbose_name=_("all sets"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("card snapshot")
        verbose_name_plural = _("card snapshots")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Card snapshot {self.digest[:12]}"
