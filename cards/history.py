"""The catalogue's history: every change of a card or a set, kept with its values.

These are django-simple-history's records. The admin's History page shows them, with each field's
old and new value.

A save records itself. Bulk changes go through here to be recorded too. They are the
admin's Retire, Restore and Release, and ``load_catalogue``. Each record keeps its reason and its
author."""

from __future__ import annotations

from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models, transaction
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from cards.cache import catalogue_changed

Row = TypeVar("Row", bound=models.Model)
User = AbstractBaseUser | AnonymousUser | None


def updated_with_history(
    queryset: models.QuerySet[Row], *, reason: str, user: User = None, **values: object
) -> int:
    """Set ``values`` on the rows of ``queryset`` that differ; the rows changed.

    Each changed row gets one history record."""
    with transaction.atomic():
        changed = [
            row
            for row in queryset.model._default_manager.select_for_update().filter(
                pk__in=queryset.values("pk")
            )
            if any(getattr(row, name) != value for name, value in values.items())
        ]
        for row in changed:
            for name, value in values.items():
                setattr(row, name, value)
        if changed:
            bulk_update_with_history(
                changed,
                queryset.model,
                list(values),
                default_user=_author(user),
                default_change_reason=reason,
            )
    catalogue_changed()  # a bulk update sends no save signal
    return len(changed)


def created_with_history(model: type[Row], rows: list[Row], *, reason: str) -> None:
    bulk_create_with_history(rows, model, default_change_reason=reason)


def bulk_updated_with_history(
    model: type[Row], rows: list[Row], fields: list[str], *, reason: str
) -> None:
    if rows:
        bulk_update_with_history(rows, model, fields, default_change_reason=reason)


def _author(user: User) -> object:
    return user if user is not None and user.is_authenticated else None
