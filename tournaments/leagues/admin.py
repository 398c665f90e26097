"""Admin for leagues: leagues (and their organizers), seasons, members, the tournaments that
joined, standings and ratings (read-only: they come from results), the corrections' audit trail
(read-only and never deleted: corrections are appended through the API only), webhook endpoints
and the delivery log with its "resend" action."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from tournaments.leagues.models import (
    Correction,
    League,
    LeagueTournament,
    Member,
    Rating,
    RatingChange,
    Result,
    Season,
    Standing,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.leagues.webhooks import delivery_resend


class ReadOnly(admin.ModelAdmin):
    """Rows the services write (results and what is summed from them)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "starts_on", "ends_on", "bots_allowed", "advice_allowed", "join_code"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "visibility", "created_at"]
    list_filter = ["visibility"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [SeasonInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on", "bots_allowed", "advice_allowed"]
    list_filter = ["league"]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
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
    """The audit trail. Append-only: a correction is made through the API (which replays the
    league with it) and never changed or deleted here."""

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

    @admin.action(description="Resend the selected deliveries (same idempotency key)")
    def resend(self, request: HttpRequest, queryset: QuerySet[WebhookDelivery]) -> None:
        ids = list(queryset.values_list("pk", flat=True))
        for pk in ids:
            delivery_resend(delivery_id=pk)
        self.message_user(request, f"Queued {len(ids)} deliveries again.", messages.SUCCESS)
