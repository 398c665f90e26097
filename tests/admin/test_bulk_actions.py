"""No "Delete selected" where rows carry history: cards and sets retire instead, tournaments and
matches are cancelled, card statistics and snapshots are rebuilt or frozen, never edited."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import RequestFactory

from cards.models import Card, CardSet, CardSnapshot
from matches.models import Match
from tournaments.models import CardBalance, CardStat, Tournament

KEEPS_HISTORY: list[type[Model]] = [
    *(Card, CardSet, CardSnapshot, Tournament, Match, CardStat, CardBalance),
]
READ_ONLY: list[type[Model]] = [CardStat, CardSnapshot]
NO_ACTIONS: list[type[Model]] = [*READ_ONLY, CardBalance]


@pytest.mark.parametrize("model", KEEPS_HISTORY, ids=lambda model: model.__name__)
def test_no_bulk_delete_where_history_matters(model: type[Model], admin_user: User) -> None:
    request = RequestFactory().get("/")
    request.user = admin_user
    actions = admin.site._registry[model].get_actions(request)
    assert "delete_selected" not in actions
    assert actions or model in NO_ACTIONS  # the list's own actions are still offered


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda model: model.__name__)
def test_rows_the_game_writes_are_never_deleted_in_admin(
    model: type[Model], admin_user: User
) -> None:
    request = RequestFactory().get("/")
    request.user = admin_user
    model_admin = admin.site._registry[model]
    assert not model_admin.has_delete_permission(request)
    assert not model_admin.has_add_permission(request)
