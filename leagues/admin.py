"""Admin for leagues.

It shows leagues with their organizers, seasons, members and the tournaments that joined. Standings
and ratings are read-only: they come from results. The corrections' audit trail is read-only and
never deleted. Corrections are appended through the API only.

It also shows webhook endpoints and the delivery log, with its "resend" action. Scheduled starts are
set through the API's service, ``leagues.services.schedules.schedule_set``. Last come the sites
allowed to frame a league's standings widget. Their origins are read as the API reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import ForeignKey, Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.translation import gettext, gettext_lazy, ngettext

from infra.errors import ApplicationError
from leagues import account_admin  # noqa: F401 (sign-ups and join requests)
from leagues.models import (
    Correction,
    EmbedSite,
    League,
    LeagueTournament,
    Member,
    OrganizerChange,
    OrganizerChangeKind,
    Rating,
    RatingChange,
    Result,
    Schedule,
    Season,
    SeasonClosure,
    Standing,
    WebhookDelivery,
    WebhookEndpoint,
)
from leagues.services.leagues import organizers_changed
from leagues.services.schedules import schedule_set
from leagues.services.webhooks import delivery_resend
from leagues.web.embeds import origin_parse
from tournaments.models import Status
from tournaments.rules.bots import DEFAULT_LEVEL
from tournaments.rules.bots import LEVELS as BOT_LEVELS
from tournaments.selectors.viewers import Organizer


class ReadOnly(admin.ModelAdmin):
    """Rows the services write: results and what is summed from them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SeasonInlineForm(forms.ModelForm):
    def clean(self) -> dict[str, object]:
        """A season whose results are closed keeps all but its name (``season_closed``)."""
        cleaned: dict[str, object] = super().clean() or {}
        closed = self.instance.pk is not None and self.instance.closed_at is not None
        if closed and set(self.changed_data) - {"name"}:
            raise forms.ValidationError(
                gettext("This season's results are closed: reopen the season first."),
                code="season_closed",
            )
        return cleaned


class SeasonInline(admin.TabularInline):
    model = Season
    form = SeasonInlineForm
    extra = 0
    fields = ["name", "starts_on", "ends_on", "bots_allowed", "advice_allowed", "join_code"]


class EmbedSiteForm(forms.ModelForm):
    def clean_origin(self) -> str:
        """The origin as the API stores it. Otherwise ``bad_origin``'s words."""
        try:
            return origin_parse(self.cleaned_data["origin"])
        except ApplicationError as refused:
            raise forms.ValidationError(refused.message, code=refused.code) from refused


class EmbedSiteInline(admin.TabularInline):
    """The sites that may frame the league's standings widget (``/leagues/<slug>/embed/``)."""

    model = EmbedSite
    form = EmbedSiteForm
    extra = 0
    fields = ["origin", "created_at"]
    readonly_fields = ["created_at"]


class OrganizerChangeInline(admin.TabularInline):
    """Who added or removed which organizer, here or through the API. Never edited here."""

    model = OrganizerChange
    extra = 0
    fields = readonly_fields = ("change", "username", "by", "at")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "visibility", "created_at"]
    list_filter = ["visibility"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [SeasonInline, EmbedSiteInline, OrganizerChangeInline]

    def save_related(
        self,
        request: HttpRequest,
        form: forms.ModelForm,
        formsets: list[BaseInlineFormSet],
        change: bool,
    ) -> None:
        """Organizer changes made here are audited as the API's are."""
        league = form.instance
        before = set(league.organizers.values_list("username", flat=True)) if change else set()
        super().save_related(request, form, formsets, change)
        after = set(league.organizers.values_list("username", flat=True))
        by = request.user.get_username()
        for name in sorted(after - before):
            organizers_changed(league, OrganizerChangeKind.ADDED, name, by)
        for name in sorted(before - after):
            organizers_changed(league, OrganizerChangeKind.REMOVED, name, by)


class ClosureInline(admin.TabularInline):
    """The season's closes and reopens, as the API appended them. Never edited here."""

    model = SeasonClosure
    extra = 0
    fields = ("action", "by", "at", "reason")
    readonly_fields = ("action", "by", "at", "reason")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class LeagueLockedDelete(admin.ModelAdmin):
    """A delete takes its league's row lock first, as a recording does.

    So it waits for a result being recorded, then deletes that result's rows too. Before, it deleted
    at once. The recording then failed at its commit on the foreign key.
    """

    def delete_model(self, request: HttpRequest, obj: Model) -> None:
        with transaction.atomic():
            _lock_leagues([cast(Any, obj).league_id])
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Model]) -> None:
        with transaction.atomic():
            _lock_leagues(queryset.values_list("league_id", flat=True))
            super().delete_queryset(request, queryset)


def _lock_leagues(ids: Iterable[int]) -> None:
    """Lock the leagues' rows in id order. So two deletes never lock them crosswise."""
    list(League.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"))


@admin.register(Season)
class SeasonAdmin(LeagueLockedDelete):
    list_display = ["name", "league", "starts_on", "ends_on", "bots_allowed", "advice_allowed"]
    list_filter = ["league"]
    inlines = [ClosureInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        """A season's results close through the API alone (``closed_at``).

        While they are closed, only its name and archiving change here, as through the API.
        """
        if obj is None or obj.closed_at is None:
            return ["closed_at"]
        keep = {"name", "archived_at"}
        return [f.name for f in Season._meta.fields if f.name not in keep]


@admin.register(Member)
class MemberAdmin(LeagueLockedDelete):
    """Tokens and claim codes are stored hashed and never shown."""

    list_display = ["handle", "league", "kind", "claimed_at"]
    list_filter = ["league", "kind"]
    search_fields = ["handle"]
    exclude = ["token_hash", "claim_hash"]
    readonly_fields = ["claimed_at"]


@admin.register(LeagueTournament)
class LeagueTournamentAdmin(ReadOnly):
    list_display = ["tournament", "season", "recorded_seq", "recorded_at"]
    list_filter = ["season"]


@admin.register(Result)
class ResultAdmin(ReadOnly):
    list_display = ["link", "member", "place", "points", "fans", "champion", "finalist"]


@admin.register(Standing)
class StandingAdmin(ReadOnly):
    list_display = ["season", "member", "points", "wins", "finals", "fans", "played"]
    list_filter = ["season"]


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ["member", "league", "mu", "sigma", "tournaments"]
    list_filter = ["league"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ["member", "link", "mu_before", "mu", "sigma"]


@admin.register(Correction)
class CorrectionAdmin(ReadOnly):
    """The audit trail.

    Append-only: a correction is made through the API, which replays the league with it. It is never
    changed or deleted here.
    """

    list_display = ["id", "kind", "league", "season", "link", "member", "match", "created_at"]
    list_filter = ["kind", "league", "season", ("created_at", admin.DateFieldListFilter)]
    search_fields = ["reason", "member__handle"]
    list_select_related = ["league", "season", "link", "member", "match"]
    date_hierarchy = "created_at"

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ["url", "league", "events", "active", "created_at"]
    list_filter = ["league", "active"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnly):
    list_display = ["id", "kind", "endpoint", "status", "attempts", "last_status", "created_at"]
    list_filter = ["status", "kind"]
    search_fields = ["idempotency_key"]
    actions = ["resend"]

    @admin.action(description=gettext_lazy("Resend the selected deliveries (same idempotency key)"))
    def resend(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        for pk in ids:
            delivery_resend(delivery_id=pk)
        queued = ngettext(
            "Queued %(count)d delivery again.", "Queued %(count)d deliveries again.", len(ids)
        )
        self.message_user(request, queued % {"count": len(ids)}, messages.SUCCESS)


class ScheduleForm(forms.ModelForm):
    """A scheduled start as the API takes it.

    ``schedule_set`` validates and writes it, with the admin acting as the organizer it is. Its
    coded refusal shows on the form.
    """

    checkin_minutes = forms.IntegerField(
        label=gettext_lazy("Check-in minutes"),
        min_value=1,
        max_value=1440,
        initial=30,
        help_text=gettext_lazy("Check-in opens this many minutes before the start (1 to 1440)."),
    )

    bot_level = forms.ChoiceField(
        label=gettext_lazy("Bot level"),
        choices=[(level, level) for level in BOT_LEVELS],
        initial=DEFAULT_LEVEL,
        help_text=gettext_lazy("The strength of a bot that takes a no-show's seat."),
    )

    user: Any  # the admin's user, set by ScheduleAdmin.get_form
    saved: Schedule

    class Meta:
        model = Schedule
        fields = ["link", "starts_at", "no_show", "bot_level"]

    def get_initial_for_field(self, field: forms.Field, field_name: str) -> object:
        """A saved schedule's check-in minutes: how long before its start check-in opens."""
        if field_name == "checkin_minutes" and self.instance.pk:
            before = self.instance.starts_at - self.instance.checkin_opens_at
            return int(before / timedelta(minutes=1))
        return super().get_initial_for_field(field, field_name)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        link = data.get("link") or getattr(self.instance, "link", None)
        if self.errors or link is None:
            return data
        try:
            # Writes inside the admin's transaction: a later error on this page rolls it back.
            self.saved = schedule_set(
                organizer=Organizer(user_id=self.user.pk, name=self.user.get_username()),
                slug=link.season.league.slug,
                tournament_id=link.tournament_id,
                starts_at=data["starts_at"],
                checkin_minutes=data["checkin_minutes"],
                no_show=data["no_show"],
                bot_level=data["bot_level"],
            )
        except ApplicationError as refusal:
            words = f"{refusal.message} ({refusal.code})"
            raise forms.ValidationError(words, refusal.code) from None
        return data

    def validate_unique(self) -> None:
        """Nothing to check. ``schedule_set`` keeps one schedule per tournament; it moves it."""


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    """A league tournament's scheduled start.

    It is set or moved while its tournament is in its lobby. As through the API, one of the league's
    organizers does it. Its outcome and check-ins are read-only. It is never deleted here.
    """

    form = ScheduleForm
    list_display = ["link", "starts_at", "checkin_opens_at", "outcome", "reason", "settled_at"]
    list_filter = ["outcome", "link__season__league"]
    list_select_related = ["link__tournament", "link__season"]
    date_hierarchy = "starts_at"
    ADDED = ("link", "starts_at", "checkin_minutes", "no_show", "bot_level")
    SHOWN = ("checkin_opens_at", "outcome", "reason", "settled_at", "checked_in")

    def get_fields(self, request: HttpRequest, obj: Schedule | None = None) -> tuple[str, ...]:
        return self.ADDED if obj is None else (*self.ADDED, *self.SHOWN)

    def get_readonly_fields(self, request: HttpRequest, obj: Schedule | None = None) -> list[str]:
        return [] if obj is None else ["link", *self.SHOWN]

    def formfield_for_foreignkey(
        self, db_field: ForeignKey, request: HttpRequest, **kwargs: object
    ) -> forms.ModelChoiceField | None:
        if db_field.name == "link":  # the add page: lobbies of league tournaments not scheduled
            kwargs["queryset"] = LeagueTournament.objects.filter(
                tournament__status=Status.LOBBY, schedule__isnull=True
            ).select_related("tournament", "season")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_form(
        self, request: HttpRequest, obj: Schedule | None = None, change: bool = False, **kw: object
    ) -> type[ScheduleForm]:
        form = super().get_form(request, obj, change=change, **kw)
        with_user = type(form.__name__, (form,), {"user": request.user})
        assert issubclass(with_user, ScheduleForm)
        return with_user

    def has_change_permission(self, request: HttpRequest, obj: Schedule | None = None) -> bool:
        settled = obj is not None and (
            bool(obj.outcome) or obj.link.tournament.status != Status.LOBBY
        )
        return not settled and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_form(self, request: HttpRequest, form: ScheduleForm, change: bool) -> Schedule:
        saved: Schedule = form.saved  # written by the service as the form was cleaned
        return saved

    def save_model(
        self, request: HttpRequest, obj: Schedule, form: ScheduleForm, change: bool
    ) -> None:
        pass

    def save_related(
        self,
        request: HttpRequest,
        form: ScheduleForm,
        formsets: list[BaseInlineFormSet],
        change: bool,
    ) -> None:
        pass

    @admin.display(description=gettext_lazy("Checked in"))
    def checked_in(self, obj: Schedule) -> str:
        found = obj.checkins.select_related("seat").order_by("seat__number")
        if not found:
            return "-"
        rows = ((c.seat.number + 1, c.seat.name, f"{c.at:%Y-%m-%d %H:%M:%S}") for c in found)
        return format_html_join(", ", gettext("seat {} ({}) at {}"), rows)
