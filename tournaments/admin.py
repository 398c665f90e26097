"""Admin for running games: tournaments, their matches, failed-match retries."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from infra.adminkit import NoBulkDelete, ReadOnlyHistory
from infra.errors import ApplicationError
from matches.models import Match, MatchStatus
from tournaments.cardstats_shapes import CardFigures
from tournaments.models import BalanceStatus, CardBalance, CardStat, OrganizerToken, Tournament
from tournaments.rules.cardstats import COUNTERS, Counts
from tournaments.selectors.cardstats import figures
from tournaments.services.lobby import Staff, tournament_cancel
from tournaments.services.matchplay import match_retry


class ReasonForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=200,
        label=_("Reason"),
        help_text=_("Why (cancel: required, sent to the players)."),
    )


@admin.register(Tournament)
class TournamentAdmin(NoBulkDelete):
    list_display = ["id", "code", "status", "round", "seat_count", "organizer", "created_at"]
    list_filter = ["status"]
    search_fields = ["code"]
    readonly_fields = [field.name for field in Tournament._meta.fields]
    action_form = ReasonForm
    actions = ["cancel"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tournaments are opened through the API

    @admin.action(description=_("Cancel the selected tournaments (give a reason)"))
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        """The host's cancel (``tournament_cancel``), done by staff.

        The event holds the reason.
        """
        reason = request.POST.get("reason", "").strip()
        if not reason:
            self.message_user(request, gettext("Give a reason to cancel."), messages.ERROR)
            return
        staff = Staff(user_id=int(request.user.pk or 0))
        done, refused = 0, []
        for tournament in queryset:
            try:
                tournament_cancel(tournament_id=tournament.pk, seat=staff, reason=reason)
                done += 1
            except ApplicationError as error:  # already over (409 already_over)
                refused.append(f"{tournament.code}: {error.message}")
        cancelled = ngettext(
            "Cancelled %(count)d tournament.", "Cancelled %(count)d tournaments.", done
        )
        self.message_user(request, cancelled % {"count": done}, messages.SUCCESS)
        if refused:
            not_cancelled = gettext("Not cancelled: %(list)s") % {"list": "; ".join(refused)}
            self.message_user(request, not_cancelled, messages.WARNING)


@admin.register(Match)
class MatchAdmin(NoBulkDelete):
    list_display = ["id", "tournament", "round", "park", "status", "attempts"]
    list_filter = ["status"]
    readonly_fields = [field.name for field in Match._meta.fields]
    actions = ["retry_failed"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Play the selected failed matches again"))
    def retry_failed(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        ids = queryset.filter(status=MatchStatus.FAILED).values_list("pk", flat=True)
        retried = [match_id for match_id in ids if match_retry(match_id=match_id)]
        queued = ngettext(
            "Queued %(count)d failed match again.",
            "Queued %(count)d failed matches again.",
            len(retried),
        )
        self.message_user(request, queued % {"count": len(retried)}, messages.SUCCESS)


@admin.register(OrganizerToken)
class OrganizerTokenAdmin(admin.ModelAdmin):
    """Which users hold an organizer token. Only its hash is stored.

    ``manage.py create_organizer`` makes a token. The user's page grants or takes away the
    ``tournaments.organize`` permission. Deleting a row here revokes that token.
    """

    list_display = ["user", "created_at"]
    readonly_fields = ["user", "created_at"]
    exclude = ["token_hash"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(CardStat)
class CardStatAdmin(ReadOnlyHistory):
    """Card figures from stored play.

    There is a row per design, set combination and player kind. The recording services write them;
    ``manage.py card_stats_recount`` rebuilds them.
    """

    list_display = [
        *("key", "player", "sets", "offered", "picked", "pick_rate", "decks"),
        *("win_rate", "reveals", "average_power", "effects"),
    ]
    list_filter = ["player", "set_name"]
    search_fields = ["key", "sets"]
    ordering = ["key", "player"]

    def _figures(self, row: CardStat) -> CardFigures:
        return figures(Counts(**{name: getattr(row, name) for name in COUNTERS}))

    @admin.display(description=_("pick rate"))
    def pick_rate(self, row: CardStat) -> str:
        return _percent(self._figures(row).pick_rate)

    @admin.display(description=_("win rate of its decks (interval at 95 %)"))
    def win_rate(self, row: CardStat) -> str:
        shown = self._figures(row)
        low_high = shown.win_interval
        if low_high is None:
            return "—"
        low, high = _percent(low_high[0]), _percent(low_high[1])
        rate = _percent(shown.win_rate)
        return gettext("%(rate)s (%(low)s to %(high)s)") % {"rate": rate, "low": low, "high": high}

    @admin.display(description=_("avg power"))
    def average_power(self, row: CardStat) -> str:
        value = self._figures(row).average_power
        return "—" if value is None else f"{value:.2f}"


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f} %"


@admin.register(CardBalance)
class CardBalanceAdmin(NoBulkDelete):
    """Balance simulations, queued by the card list's "Simulate" action.

    Shows their progress while a worker plays them. Then shows the win rates with and without the
    card.
    """

    list_display = ["key", "status", "progress", "with_card", "without_card", "created_at"]
    list_filter = ["status"]
    search_fields = ["key"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, object] | None = None
    ) -> HttpResponse:
        """The list, reloading itself every few seconds while a simulation is queued or running.

        So it shows the progress as a worker plays.
        """
        response = super().changelist_view(request, extra_context)
        running = [BalanceStatus.QUEUED, BalanceStatus.RUNNING]
        if request.method == "GET" and CardBalance.objects.filter(status__in=running).exists():
            response.headers["Refresh"] = "3"
        return response

    @admin.display(description=_("pairs played"))
    def progress(self, row: CardBalance) -> str:
        if row.status == BalanceStatus.FAILED:  # the worker's reason, not a bare count
            failed = gettext("Failed after %(done)s of %(matches)s pairs: %(error)s")
            error = row.error or gettext("no reason")
            return failed % {"done": row.done, "matches": row.matches, "error": error}
        return gettext("%(done)s of %(matches)s") % {"done": row.done, "matches": row.matches}

    @admin.display(description=_("won with it"))
    def with_card(self, row: CardBalance) -> str:
        return _percent(row.wins_with / row.done if row.done else None)

    @admin.display(description=_("won without it"))
    def without_card(self, row: CardBalance) -> str:
        return _percent(row.wins_without / row.done if row.done else None)
