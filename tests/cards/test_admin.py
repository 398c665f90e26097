"""Curating in Django admin: bad values are refused, saves are marked curated, set totals show."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from cards.catalogue import LoadReport
from cards.models import Card, CardSet
from tests.tournaments.play import open_game

CARD_FIELDS = (
    *("name", "level", "power", "copies", "copies_per_starter_deck", "keyword", "timing"),
    *("effect", "confidence", "note", "effect_code"),
)
INLINE_FIELDS = (
    *("name", "level", "power", "copies", "copies_per_starter_deck", "keyword", "timing"),
    *("effect_code", "confidence", "effect", "translations"),
)


def _value(value: Any) -> Any:
    """A field's value as a form posts it (JSON fields as their JSON text)."""
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value


def _card_form(card: Card, **changes: Any) -> dict[str, Any]:
    data = {name: _value(getattr(card, name)) for name in CARD_FIELDS}
    data |= {"card_set": card.card_set_id, "effect_params": json.dumps(card.effect_params)}
    data["translations"] = json.dumps(card.translations)
    if card.power_is_round:
        data["power_is_round"] = "on"
    return data | changes


def _post_card(client: Client, card: Card, **changes: Any) -> Any:
    return client.post(f"/admin/cards/card/{card.pk}/change/", _card_form(card, **changes))


@pytest.fixture
def submarine(catalogue: LoadReport) -> Card:
    return Card.objects.get(card_set__name="Shipwreck", name="Submarine")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"power": -1}, "Power cannot be negative."),
        ({"copies": 0}, "printed at least once"),  # not the constraint's name
        ({"level": "S"}, "A set of kind additional holds A/B/C cards, not level S."),
        ({"power": 11}, "at most 10"),
        ({"effect_code": "no_such_effect"}, "Select a valid choice"),  # not among the codes
        ({"effect_params": '{"no_such_param": 1}'}, "takes no parameter no_such_param"),
        ({"effect_code": "", "effect_params": '{"side": "own"}'}, "need an effect code."),
    ],
)
def test_a_bad_card_value_is_refused_and_nothing_changes(
    admin_client: Client, submarine: Card, changes: dict[str, Any], message: str
) -> None:
    response = _post_card(admin_client, submarine, **changes)
    assert response.status_code == 200  # the form again, not a redirect
    assert message in response.content.decode()
    fresh = Card.objects.get(pk=submarine.pk)
    assert (fresh.power, fresh.level, fresh.curated) == (9, "C", False)
    assert (fresh.effect_code, fresh.effect_params) == (
        submarine.effect_code,
        submarine.effect_params,
    )


def test_a_good_edit_is_saved_and_marked_curated(admin_client: Client, submarine: Card) -> None:
    response = _post_card(admin_client, submarine, power=8)
    assert response.status_code == 302
    fresh = Card.objects.get(pk=submarine.pk)
    assert (fresh.power, fresh.curated) == (8, True)


def test_the_set_page_warns_when_copies_do_not_add_up(
    admin_client: Client, submarine: Card
) -> None:
    Card.objects.filter(pk=submarine.pk).update(copies=5)
    response = admin_client.get(f"/admin/cards/cardset/{submarine.card_set_id}/change/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Warning: The cards in play hold 41 copies, but the set should hold 40." in page
    assert "Submarine" in page  # the designs are listed inline


def test_the_set_page_confirms_a_complete_set(admin_client: Client, catalogue: LoadReport) -> None:
    castle = CardSet.objects.get(name="Castle")
    page = admin_client.get(f"/admin/cards/cardset/{castle.pk}/change/").content.decode()
    assert "40 of 40 copies: complete." in page
    assert "Warning" not in page


def _inline_form(card_set: CardSet, **changes: Any) -> dict[str, Any]:
    cards = list(card_set.cards.order_by("pk"))
    data: dict[str, Any] = {
        **{name: _value(getattr(card_set, name)) for name in ("name", "box", "kind", "note")},
        **{name: _value(getattr(card_set, name)) for name in ("expected_copies", "position")},
        "starter_decks": _value(card_set.starter_decks),
        "cards-TOTAL_FORMS": len(cards),
        "cards-INITIAL_FORMS": len(cards),
    }
    for index, card in enumerate(cards):
        row = {name: _value(getattr(card, name)) for name in INLINE_FIELDS}
        changed = {name: _value(value) for name, value in changes.get(card.name, {}).items()}
        row |= {"id": card.pk, "card_set": card_set.pk} | changed
        data |= {f"cards-{index}-{name}": value for name, value in row.items()}
        # A JSON field with a callable default sends its initial value too, as a browser does.
        data[f"initial-cards-{index}-translations"] = _value(card.translations)
    return data


def test_an_inline_edit_is_validated_and_marked_curated(
    admin_client: Client, submarine: Card
) -> None:
    url = f"/admin/cards/cardset/{submarine.card_set_id}/change/"
    refused = admin_client.post(url, _inline_form(submarine.card_set, Submarine={"power": -2}))
    assert "Power cannot be negative." in refused.content.decode()
    assert Card.objects.get(pk=submarine.pk).power == 9
    saved = admin_client.post(url, _inline_form(submarine.card_set, Submarine={"power": 8}))
    assert saved.status_code == 302
    fresh = Card.objects.get(pk=submarine.pk)
    assert (fresh.power, fresh.curated) == (8, True)
    assert Card.objects.filter(curated=True).count() == 1


def test_saving_a_card_of_a_running_tournament_says_it_keeps_the_previous_version(
    admin_client: Client, catalogue: LoadReport
) -> None:
    open_game(
        seats=2, additional_sets=["Castle", "Film Studio", "Funfair", "Shipwreck", "Toy Store"]
    )
    open_game(seats=2, start=False)  # a lobby has frozen nothing yet
    submarine = Card.objects.get(card_set__name="Shipwreck", name="Submarine")
    response = _post_card(admin_client, submarine, power=8)
    assert response.status_code == 302
    page = admin_client.get(response["Location"]).content.decode()
    assert "Shipwreck/Submarine: 1 running tournament(s) keep the previous version" in page
    castle = Card.objects.filter(card_set__name="Outer Space").first()
    assert castle is not None
    quiet = admin_client.get(_post_card(admin_client, castle)["Location"]).content.decode()
    assert "keep the previous version" not in quiet


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?card_set__box__exact=beach_cup",
        "?level__exact=C",
        "?q=Submarine",
        "?keyword=Flag+loss",
    ],
)
def test_the_card_list_filters_and_searches(
    admin_client: Client, catalogue: LoadReport, query: str
) -> None:
    response = admin_client.get(f"/admin/cards/card/{query}")
    assert response.status_code == 200


def test_the_set_list_shows_copy_totals(admin_client: Client, catalogue: LoadReport) -> None:
    response = admin_client.get("/admin/cards/cardset/")
    assert response.status_code == 200
    assert "Fairytale Forest" in response.content.decode()


def test_a_retired_card_counts_nowhere_in_its_sets_totals(
    admin_client: Client, submarine: Card
) -> None:
    """The set list's total, its tick, its playable column, its page and the API agree: a
    retired card's copies are not in play (they said "40 ✓" beside "no: 36 of 40 copies")."""
    Card.objects.filter(pk=submarine.pk).update(retired=True)
    row = _set_row(admin_client.get("/admin/cards/cardset/").content.decode(), "Shipwreck")
    assert '<td class="field-copy_total">36</td>' in row
    assert 'alt="False"' in row.split("field-copies_ok")[1].split("</td>")[0]
    assert "36 of 40 copies" in row
    page = admin_client.get(f"/admin/cards/cardset/{submarine.card_set_id}/change/")
    assert "The cards in play hold 36 copies (4 more on retired cards)" in page.content.decode()
    shipwreck = next(
        found
        for found in admin_client.get("/api/v1/card-sets/").json()
        if found["name"] == "Shipwreck"
    )
    assert (shipwreck["copy_total"], shipwreck["playable"]) == (36, False)


def _set_row(page: str, name: str) -> str:
    return next(row for row in page.split("<tr") if f">{name}</a>" in row)


def test_the_admin_login_page_loads(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200


# ---------------------------------------------------------------- effect parameter values


@pytest.fixture
def reporter(catalogue: LoadReport) -> Card:
    return Card.objects.get(card_set__name="City", name="Reporter")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ('{"n": "two"}', "Reporter: Effect 'arrange_top': parameter 'n' must be a whole number"),
        ('{"n": -5}', "Reporter: Effect 'arrange_top': parameter 'n' must be from 1 to 10, not -5"),
        ("{}", "Reporter: Effect 'arrange_top': parameter 'n' is required."),
        ("-5", "Reporter: effect parameters must be a JSON object."),
    ],
)
def test_a_bad_reporter_parameter_is_refused_with_a_message_and_nothing_changes(
    admin_client: Client, reporter: Card, params: str, message: str
) -> None:
    response = _post_card(admin_client, reporter, effect_params=params)
    assert response.status_code == 200  # the form again, not a redirect
    assert escape(message) in response.content.decode()
    fresh = Card.objects.get(pk=reporter.pk)
    assert (fresh.effect_params, fresh.curated) == ({"n": 2, "bottom": 1}, False)


def test_a_good_reporter_parameter_is_saved(admin_client: Client, reporter: Card) -> None:
    response = _post_card(admin_client, reporter, effect_params='{"n": 3, "bottom": 1}')
    assert response.status_code == 302
    assert Card.objects.get(pk=reporter.pk).effect_params == {"n": 3, "bottom": 1}


def test_an_inline_code_change_that_the_params_do_not_fit_is_refused_with_a_message(
    admin_client: Client, reporter: Card
) -> None:
    url = f"/admin/cards/cardset/{reporter.card_set_id}/change/"
    changes = {"Reporter": {"effect_code": "pile_to_deck"}}
    response = admin_client.post(url, _inline_form(reporter.card_set, **changes))
    assert response.status_code == 200  # a message, not a server error
    message = "Reporter: Effect 'pile_to_deck' takes no parameter bottom."
    assert escape(message) in response.content.decode()
    assert Card.objects.get(pk=reporter.pk).effect_code == "arrange_top"


def test_an_inline_params_edit_is_validated(admin_client: Client, reporter: Card) -> None:
    url = f"/admin/cards/cardset/{reporter.card_set_id}/change/"
    changes = {"Reporter": {"effect_params": '{"n": "two"}'}}
    response = admin_client.post(url, _inline_form(reporter.card_set, **changes))
    assert escape("parameter 'n' must be a whole number") in response.content.decode()
    assert Card.objects.get(pk=reporter.pk).effect_params == {"n": 2, "bottom": 1}


@pytest.mark.parametrize(
    "changes",
    [
        {"name": "Submarine (typo fix)", "power": -1},
        {"name": "Submarine (typo fix)", "effect_params": "[1]"},
        {"card_set": "robot"},
    ],
)
def test_a_refused_edit_of_a_renamed_or_moved_card_answers_the_form_again(
    admin_client: Client, submarine: Card, changes: dict[str, Any]
) -> None:
    if changes.get("card_set") == "robot":
        changes = {"card_set": CardSet.objects.get(kind="robot").pk}
    answer = _post_card(admin_client, submarine, **changes)
    assert answer.status_code == 200
    assert "errornote" in answer.content.decode()
    assert Card.objects.get(pk=submarine.pk).name == "Submarine"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"power": -1}, "power"),
        ({"level": "S"}, "level"),
        ({"power": 11}, "power"),
        ({"effect_params": "-5"}, "effect_params"),
        ({"translations": "[]"}, "translations"),
    ],
)
@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_a_refused_card_value_is_told_in_the_staffs_language(
    admin_client: Client, submarine: Card, changes: dict[str, Any], field: str, language: str
) -> None:
    headers = {"Accept-Language": language}
    english = _field_errors(_post_card(admin_client, submarine, **changes), field)
    url = f"/admin/cards/card/{submarine.pk}/change/"
    told = _field_errors(
        admin_client.post(url, _card_form(submarine, **changes), headers=headers), field
    )
    assert english and told and told != english, (english, told)


def _field_errors(response: Any, field: str) -> list[str]:
    form = response.context["adminform"].form
    return [str(error) for error in form.errors.get(field, [])]
