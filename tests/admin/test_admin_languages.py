"""The admin of the game's apps names its models in the staff member's language: every model of
cards, matches, tournaments and leagues has its own translated name and plural (Django's made-up
plurals read "Matchs" and "Webhook deliverys"), and the index shows them."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db.models import Model
from django.test import Client
from django.utils import translation

APPS = ("cards", "matches", "tournaments", "leagues")
MODELS = sorted(
    (model for label in APPS for model in apps.get_app_config(label).get_models()),
    key=lambda model: model._meta.label,
)


@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_every_model_names_itself_in_every_language(model: type[Model]) -> None:
    options = model._meta.original_attrs
    assert {"verbose_name", "verbose_name_plural"} <= set(options), model._meta.label
    for language in ("zh-hans", "ru"):
        with translation.override(language):
            names = (str(model._meta.verbose_name), str(model._meta.verbose_name_plural))
        with translation.override("en"):
            english = (str(model._meta.verbose_name), str(model._meta.verbose_name_plural))
        assert names != english, (model._meta.label, language)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "shown", "not_shown"),
    [
        ("en", ["Matches", "Webhook deliveries", "Tournaments"], ["Matchs", "deliverys"]),
        ("ru", ["Матчи", "Доставки вебхуков", "Турниры", "Лиги"], ["Matches", "Tournaments"]),
        ("zh-hans", ["对局", "Webhook 投递", "锦标赛", "联赛"], ["Matches", "Tournaments"]),
    ],
)
def test_the_admin_index_lists_the_models_in_the_staffs_language(
    admin_client: Client, language: str, shown: list[str], not_shown: list[str]
) -> None:
    page = admin_client.get("/admin/", headers={"Accept-Language": language}).content.decode()
    assert [word for word in shown if word not in page] == []
    assert [word for word in not_shown if word in page] == []


def test_the_models_are_found(**_: Any) -> None:
    assert len(MODELS) >= 30
