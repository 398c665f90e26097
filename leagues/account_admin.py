"""Admin for organizer sign-ups, the one step of organizing left to the admin.

The admin approves a pending request or declines it with a reason. Approving grants
``tournaments.organize``, and its token starts to act. Join requests are shown read-only. Organizers
decide them through the API.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy, ngettext

from infra.adminkit import ReadOnlyHistory
from leagues.models import JoinRequest, OrganizerRequest
from leagues.services.accounts import organizer_request_decide


class DecisionForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=500,
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("Why (decline: required, shown to the person)."),
    )


@admin.register(OrganizerRequest)
class OrganizerRequestAdmin(ReadOnlyHistory):
    """Shown and decided by the two actions, never edited or deleted.

    People sign up through the API. A decided request is the account's record of who let it in.
    """

    list_display = ["user", "status", "about", "created_at", "decided_by"]
    list_filter = ["status"]
    search_fields = ["user__username", "about"]
    fields = ("user", "about", "status", "reason", "created_at", "decided_by", "decided_at")
    readonly_fields = fields
    action_form = DecisionForm
    actions = ["approve", "decline"]

    @admin.action(description=gettext_lazy("Approve the selected requests (they may organize)"))
    def approve(self, request: HttpRequest, queryset: QuerySet[OrganizerRequest]) -> None:
        done = self._decide(request, queryset, approve=True, reason="")
        approved = ngettext("Approved %(count)d request.", "Approved %(count)d requests.", done) % {
            "count": done
        }
        self.message_user(request, approved, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Decline the selected requests (give a reason)"))
    def decline(self, request: HttpRequest, queryset: QuerySet[OrganizerRequest]) -> None:
        reason = request.POST.get("reason", "").strip()
        if not reason:
            self.message_user(request, gettext("Give a reason to decline."), messages.ERROR)
            return
        done = self._decide(request, queryset, approve=False, reason=reason)
        declined = ngettext("Declined %(count)d request.", "Declined %(count)d requests.", done) % {
            "count": done
        }
        self.message_user(request, declined, messages.SUCCESS)

    def _decide(
        self,
        request: HttpRequest,
        queryset: QuerySet[OrganizerRequest],
        *,
        approve: bool,
        reason: str,
    ) -> int:
        by = int(request.user.pk or 0)
        ids = list(queryset.values_list("pk", flat=True))
        done = sum(
            organizer_request_decide(request_id=pk, by_user_id=by, approve=approve, reason=reason)
            for pk in ids
        )
        if done < len(ids):
            skipped = gettext("Requests decided already were left as they were.")
            self.message_user(request, skipped, messages.WARNING)
        return done


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyHistory):
    """Who asked to join which league, and who let them in.

    The organizers decide through the API. The token and the claim code are stored hashed and never
    shown.
    """

    list_display = ["handle", "league", "status", "member", "decided_by", "created_at"]
    list_filter = ["status", "league"]
    search_fields = ["handle", "message"]
    exclude = ["token_hash", "claim_hash"]
