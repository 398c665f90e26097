"""Admin habits shared by the apps' admin pages."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin
from django.http import HttpRequest


class NoBulkDelete(admin.ModelAdmin):
    """No "Delete selected" on a list whose rows carry history.

    A row is deleted one at a time, from its own page and its confirmation. That is, where the admin
    allows deleting at all."""

    def get_actions(
        self, request: HttpRequest
    ) -> dict[str, tuple[Callable[..., str], str, str] | None]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


class ReadOnlyHistory(NoBulkDelete):
    """Rows the game itself writes: shown in admin, never added, changed or deleted."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
