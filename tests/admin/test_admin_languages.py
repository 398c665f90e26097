"""The admin of the game's apps names its models in the staff member's language: every model of
cards, matches, tournaments and leagues has its own translated name and plural (Django's made-up
plurals read "Matchs" and "Webhook deliverys"), and the index shows them."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin import ModelAdmin, site
from django.contrib.admin.utils import label_for_field
from django.db.models import Model
from django.http import HttpRequest
from django.test import Client, RequestFactory
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


# Words a staff member reads the same in every language: an abbreviation, the level letters
# printed on the cards, the box's own name (the Russian client keeps "Beach Cup" too).
SAME_IN_EVERY_LANGUAGE = {"ID", "A", "B", "C", "Beach Cup"}
# django-simple-history's own columns of a historical model (`history_date`…): the library
# names them, with no label of ours to translate.
LIBRARY_FIELDS = {"history_id", "history_date", "history_change_reason", "history_type"}
LIBRARY_FIELDS |= {"history_user"}


def labels(model: type[Model], language: str) -> dict[str, str]:
    """Each field's label, help text and choices as the admin shows them in ``language``."""
    shown: dict[str, str] = {}
    with translation.override(language):
        for field in model._meta.get_fields():
            if (field.auto_created and not field.concrete) or field.name in LIBRARY_FIELDS:
                continue  # a reverse relation is the other model's field
            shown[f"{field.name} label"] = str(field.verbose_name)  # type: ignore[union-attr]
            shown[f"{field.name} help"] = str(getattr(field, "help_text", ""))
            for value, label in getattr(field, "flatchoices", None) or []:
                shown[f"{field.name} choice {value}"] = str(label)
    return shown


@pytest.mark.parametrize("language", ["zh-hans", "ru"])
@pytest.mark.parametrize("model", MODELS, ids=lambda model: model._meta.label)
def test_every_field_of_every_model_is_labelled_in_every_language(
    model: type[Model], language: str
) -> None:
    english, shown = labels(model, "en"), labels(model, language)
    same = [
        f"{name}: {text!r}"
        for name, text in english.items()
        if text and shown[name] == text and text not in SAME_IN_EVERY_LANGUAGE
    ]
    assert same == [], (model._meta.label, language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_every_admin_form_and_column_is_labelled_in_every_language(
    admin_user: Any, language: str
) -> None:
    """The add form's labels and help texts, its read-only fields and the change list's columns,
    of every model the admin shows (its own form fields and computed columns included)."""
    request = RequestFactory().get("/admin/")
    request.user = admin_user
    same: list[str] = []
    for model, model_admin in site._registry.items():
        if model._meta.app_label not in APPS:
            continue
        english = shown_labels(model, model_admin, request, "en")
        shown = shown_labels(model, model_admin, request, language)
        same += [
            f"{model._meta.label} {name}: {text!r}"
            for name, text in english.items()
            if text and shown.get(name) == text and text not in SAME_IN_EVERY_LANGUAGE
        ]
    assert same == []


def shown_labels(
    model: type[Model], model_admin: ModelAdmin[Any], request: HttpRequest, language: str
) -> dict[str, str]:
    with translation.override(language):
        shown: dict[str, str] = {}
        # The change form's fields and the action bar's (a bound field's label is the form's
        # label or, without one, the field's name made pretty: English).
        for kind, form in (
            ("form", model_admin.get_form(request)()),
            ("action", model_admin.action_form()),
        ):
            for bound in form:
                shown[f"{kind} {bound.name}"] = str(bound.label)
                shown[f"{kind} {bound.name} help"] = str(bound.help_text)
        columns = [
            *model_admin.get_list_display(request),
            *model_admin.get_readonly_fields(request),
        ]
        for name in columns:
            if isinstance(name, str) and name != "__str__":
                shown[f"column {name}"] = str(label_for_field(name, model, model_admin))
    return shown
