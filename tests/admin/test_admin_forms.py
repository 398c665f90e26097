"""Every admin add and change form of the game's apps, posted empty and full: never a 500.

The client raises a view's exception instead of answering 500, so a crash fails the test with
its traceback. "Full" is what a browser posts from the page as shown (a change page saved as it
is; an add page filled from an existing row's change page with its unique values changed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib import admin
from django.db.models import CharField, Model, OneToOneField
from django.forms.models import _get_foreign_key
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from cards.catalogue import LoadReport
from cards.models import Card, CardSet
from leagues.models import (
    Correction,
    League,
    Member,
    Schedule,
    WebhookDelivery,
    WebhookEndpoint,
)
from tests.admin.forms import as_new, form_data, offered
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
)
from tournaments.models import CardBalance

APPS = {"cards", "matches", "tournaments", "leagues"}
REGISTERED = sorted(
    (model for model in admin.site._registry if model._meta.app_label in APPS),
    key=lambda model: model._meta.label,
)


@pytest.fixture
def rows(catalogue: LoadReport, django_capture_on_commit_callbacks: Any, admin_user: Any) -> None:
    """A row of every registered model: a league season's bot tournament played to its end, and
    two lobbies, one scheduled (a player checked in) and one not (the admin may schedule it:
    the admin user is one of the league's organizers)."""
    client = APIClient()
    token = create_organizer("curator")
    slug, season = league_with_season(client, token)
    with django_capture_on_commit_callbacks(execute=True):
        bot_tournament(client, token, slug, season, 2)
    league = League.objects.get(slug=slug)
    league.organizers.add(admin_user)
    scheduled_lobby(client, token, slug, season)
    ok(post(client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 2}, org(token)))
    ann = Member.objects.create(league=league, handle="ann")
    Correction.objects.create(
        league=league, season_id=season, member=ann, kind="disqualify", reason="No-show"
    )
    hook = WebhookEndpoint.objects.create(
        league=league, url="https://example.com/hook", secret="s" * 32
    )
    WebhookDelivery.objects.create(
        endpoint=hook, kind="tournament_finished", idempotency_key="k", sequence=1
    )
    CardBalance.objects.create(key="Castle/Dragon", matches=10)
    ok(post(client, "organizers/", {"username": "newcomer", "about": "A club."}))
    ok(post(client, f"leagues/{slug}/join-requests/", {"handle": "Zoe"}))


def scheduled_lobby(client: APIClient, token: str, slug: str, season: int) -> int:
    """A 2-seat season lobby whose start is tomorrow, its check-in open; one player checked in."""
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    made = ok(post(client, path, {"seats": 2}, org(token)))
    seat = ok(post(client, "tournaments/join/", {"code": made["code"], "name": "Ann"}))
    starts = (timezone.now() + timedelta(hours=20)).isoformat()
    when = {"starts_at": starts, "checkin_minutes": 1440}
    ok(post(client, f"leagues/{slug}/tournaments/{made['id']}/schedule/", when, org(token)))
    bearer = {"Authorization": f"Bearer {seat['seat']['token']}"}
    ok(post(client, f"leagues/tournaments/{made['id']}/checkin/", None, bearer), 200)
    return int(made["id"])


def _url(model: type[Model], action: str, pk: Any = None) -> str:
    meta = model._meta
    middle = f"{pk}/change" if action == "change" else "add"
    return f"/admin/{meta.app_label}/{meta.model_name}/{middle}/"


def _unique(models: list[type[Model]]) -> dict[str, int]:
    """Text fields whose value must differ in a new row (alone or in a unique constraint), with
    their lengths, of a model and its inlines' models."""
    unique: dict[str, int] = {}
    for model in models:
        together = {
            name for rule in model._meta.constraints for name in getattr(rule, "fields", ())
        }
        for field in model._meta.fields:
            if isinstance(field, CharField) and (field.unique or field.name in together):
                unique[field.name] = int(field.max_length or 40)
    return unique


def _inline_models(model: type[Model]) -> list[type[Model]]:
    return [inline.model for inline in admin.site._registry[model].inlines]


def _parent_keys(model: type[Model]) -> set[str]:
    """The inline rows' foreign keys to the page's row (the add page has no row yet)."""
    inlines = admin.site._registry[model].inlines
    return {
        _get_foreign_key(model, inline.model, fk_name=inline.fk_name).name for inline in inlines
    }


def _first(model: type[Model]) -> Model:
    row = model._default_manager.order_by("pk").first()
    assert row is not None, f"the fixture made no {model._meta.label} row"
    return row


@pytest.mark.parametrize("model", REGISTERED, ids=lambda model: model._meta.label)
def test_every_change_form_takes_empty_and_full_data(
    admin_client: Client, rows: None, model: type[Model]
) -> None:
    url = _url(model, "change", _first(model).pk)
    page = admin_client.get(url)
    assert page.status_code == 200
    assert admin_client.post(url, {}).status_code in (200, 302, 403)
    saved = admin_client.post(url, form_data(page.content.decode()))
    assert saved.status_code in (302, 403), _errors(saved)


@pytest.mark.parametrize("model", REGISTERED, ids=lambda model: model._meta.label)
def test_every_add_form_takes_empty_and_full_data(
    admin_client: Client, rows: None, model: type[Model]
) -> None:
    url = _url(model, "add")
    if not admin.site._registry[model].has_add_permission(_request(admin_client)):
        assert admin_client.get(url).status_code == 403
        return
    assert admin_client.get(url).status_code == 200
    assert admin_client.post(url, {}).status_code == 200  # the form again, with its errors
    example = admin_client.get(_url(model, "change", _first(model).pk)).content.decode()
    before = model._default_manager.count()
    unique = _unique([model, *_inline_models(model)])
    data = as_new(form_data(example), unique, _parent_keys(model))
    added = admin_client.post(url, {**data, **_fixed_once_made(model, admin_client.get(url))})
    assert added.status_code == 302, _errors(added)
    assert model._default_manager.count() == before + 1


def _fixed_once_made(model: type[Model], add_page: Any) -> dict[str, str]:
    """A one-to-one key its change page does not offer (set once, when the row is made; a
    schedule's tournament): the add page's first choice of it."""
    choices = offered(add_page.content.decode())
    return {
        field.name: next(value for value in choices[field.name] if value)
        for field in model._meta.fields
        if isinstance(field, OneToOneField) and field.name in choices
    }


def _request(client: Client) -> Any:
    request = client.get("/admin/").wsgi_request
    return request


def _errors(response: Any) -> str:
    context = response.context or {}
    form = context.get("adminform")
    formsets = context.get("inline_admin_formsets", [])
    problems = [form.form.errors if form else None]
    problems += [formset.formset.errors for formset in formsets]
    return f"{response.status_code}: {problems}"


def test_a_set_added_with_cards_on_its_page_saves_without_a_confidence(
    admin_client: Client, catalogue: LoadReport
) -> None:
    """The set page's rows once lacked `confidence`, and the model had no default: a 500."""
    page = form_data(admin_client.get("/admin/cards/cardset/add/").content.decode())
    assert page["cards-__prefix__-confidence"] == "medium"  # the row offers it, with the default
    data = {
        "cards-0-confidence": page["cards-__prefix__-confidence"],
        **{"name": "Test Lab", "box": "base", "kind": "additional", "expected_copies": 40},
        **{"position": 99, "note": "", "cards-TOTAL_FORMS": 1, "cards-INITIAL_FORMS": 0},
        **{"cards-0-name": "Beaker", "cards-0-level": "A", "cards-0-power": 2},
        **{"cards-0-copies": 40, "cards-0-timing": "plain", "cards-0-effect_params": "{}"},
    }
    response = admin_client.post("/admin/cards/cardset/add/", data)
    assert response.status_code == 302, _errors(response)
    card = Card.objects.get(card_set=CardSet.objects.get(name="Test Lab"), name="Beaker")
    assert (card.confidence, card.curated) == ("medium", True)


def test_corrections_are_shown_and_filtered_but_never_added_changed_or_deleted(
    admin_client: Client, rows: None
) -> None:
    correction = Correction.objects.get()
    listing = admin_client.get("/admin/leagues/correction/?kind__exact=disqualify")
    assert listing.status_code == 200 and "No-show" not in listing.content.decode()
    assert "ann" in listing.content.decode()
    assert (
        "0 corrections"
        in admin_client.get("/admin/leagues/correction/?kind__exact=forfeit").content.decode()
    )
    page = admin_client.get(f"/admin/leagues/correction/{correction.pk}/change/")
    assert page.status_code == 200 and "No-show" in page.content.decode()
    assert "_save" not in page.content.decode()
    gone = f"/admin/leagues/correction/{correction.pk}/delete/"
    assert admin_client.post(gone, {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [correction.pk], "post": "yes"}
    admin_client.post("/admin/leagues/correction/", bulk)
    assert Correction.objects.filter(pk=correction.pk, reason="No-show").exists()


def test_a_schedule_is_set_through_the_service_whose_refusal_shows_and_changes_nothing(
    admin_client: Client, rows: None
) -> None:
    url = _url(Schedule, "add")
    page = admin_client.get(url)
    data = {**form_data(page.content.decode()), **_fixed_once_made(Schedule, page)}
    past = timezone.localtime() - timedelta(hours=1)
    data.update(starts_at_0=f"{past:%Y-%m-%d}", starts_at_1=f"{past:%H:%M:%S}")
    refused = admin_client.post(url, data)
    assert refused.status_code == 200
    assert "schedule_in_past" in refused.content.decode()
    assert Schedule.objects.count() == 1
    later = past + timedelta(hours=3)
    data.update(starts_at_0=f"{later:%Y-%m-%d}", starts_at_1=f"{later:%H:%M:%S}")
    data["checkin_minutes"] = "45"
    assert admin_client.post(url, data).status_code == 302
    made = Schedule.objects.get(link_id=int(data["link"]))
    assert made.starts_at - made.checkin_opens_at == timedelta(minutes=45)


def test_a_schedule_page_lists_its_check_ins_and_a_settled_one_is_read_only(
    admin_client: Client, rows: None
) -> None:
    schedule = Schedule.objects.get()
    page = admin_client.get(_url(Schedule, "change", schedule.pk)).content.decode()
    assert "seat 1 (Ann) at" in page and 'name="checkin_minutes" value="1440"' in page
    Schedule.objects.filter(pk=schedule.pk).update(outcome="cancelled", reason="seats_open")
    page = admin_client.get(_url(Schedule, "change", schedule.pk)).content.decode()
    assert "_save" not in page and "seats_open" in page
    assert admin_client.post(_url(Schedule, "change", schedule.pk), {}).status_code == 403


def test_only_the_leagues_organizers_schedule_in_the_admin(
    admin_client: Client, rows: None, admin_user: Any
) -> None:
    schedule = Schedule.objects.select_related("link__season__league").get()
    schedule.link.season.league.organizers.remove(admin_user)
    url = _url(Schedule, "change", schedule.pk)
    before = (schedule.starts_at, schedule.checkin_opens_at)
    data = {**form_data(admin_client.get(url).content.decode()), "checkin_minutes": "10"}
    refused = admin_client.post(url, data)
    assert refused.status_code == 200 and "not_league_organizer" in refused.content.decode()
    schedule.refresh_from_db()
    assert (schedule.starts_at, schedule.checkin_opens_at) == before


def test_an_edit_in_the_admin_keeps_the_no_show_policy_it_shows(
    admin_client: Client, rows: None
) -> None:
    schedule = Schedule.objects.select_related("link__season").get()
    Schedule.objects.filter(pk=schedule.pk).update(no_show="bot", bot_level="steady")
    url = _url(Schedule, "change", schedule.pk)
    data = {**form_data(admin_client.get(url).content.decode()), "checkin_minutes": "20"}
    assert (data["no_show"], data["bot_level"]) == ("bot", "steady")
    answer = admin_client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    schedule.refresh_from_db()
    assert (schedule.no_show, schedule.bot_level) == ("bot", "steady")
    assert schedule.starts_at - schedule.checkin_opens_at == timedelta(minutes=20)
