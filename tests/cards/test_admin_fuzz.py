"""Every admin add and change form of the cards app, card rows included, posted as a browser
would (the page's own fields, management form included) with generated valid and invalid values:
never a 500, and never a row saved that the catalogue's rules (``cards.validation``) refuse.

The client raises a view's exception instead of answering 500, so a crash fails the test with
its traceback. Each example runs in a savepoint rolled back after it, so examples do not pile up.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from cards.catalogue import LoadReport
from cards.models import Box, Card, CardSet, Confidence, Level, SetKind, Timing
from cards.validation import card_errors, card_set_errors
from matches.engine.codes import EFFECT_SCHEMAS
from tests.admin.forms import form_data

FUZZ = examples(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _junk(values: list[str]) -> st.SearchStrategy[str]:
    """A field's known values, mostly, and sometimes something no choice offers."""
    return st.one_of(st.sampled_from(values), st.sampled_from(["", "Z", "x" * 30]))


def _number(low: int, high: int) -> st.SearchStrategy[str]:
    edges = st.sampled_from(["", "-1", "0", "abc", "99999", "1.5"])
    return st.one_of(st.integers(low, high).map(str), edges)


NAMES = st.one_of(
    st.sampled_from(["", "Jester", "x" * 61, "Titan", "Ölkännchen 烏龍"]),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=8),
)
PARAMS = st.sampled_from(
    ["{}", "", "[1]", "{", '{"side": "own"}', '{"power": 2}', '{"nope": 1}', "null", '"x"']
)
ROW_FIELDS: dict[str, st.SearchStrategy[str]] = {
    "name": NAMES,
    "level": _junk(Level.values),
    "power": _number(0, 40000),
    "power_is_round": st.sampled_from(["", "on"]),
    "copies": _number(0, 12),
    "copies_per_starter_deck": _number(0, 3),
    "keyword": st.sampled_from(["", "Fan", "k" * 41]),
    "timing": _junk(Timing.values),
    "effect_code": _junk(sorted(EFFECT_SCHEMAS)),
    "effect_params": PARAMS,
    "confidence": _junk(Confidence.values),
}
PLAIN_ROW = st.fixed_dictionaries(
    {
        "name": st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=12),
        "level": st.sampled_from(Level.values),
        "power": st.integers(0, 12).map(str),
        "power_is_round": st.just(""),
        "copies": st.integers(1, 4).map(str),
        "copies_per_starter_deck": st.just(""),
        "keyword": st.just(""),
        "timing": st.just("plain"),
        "effect_code": st.just(""),
        "effect_params": st.just("{}"),
        "confidence": st.just("medium"),
    }
)


@st.composite
def card_rows(draw: st.DrawFn) -> dict[str, str]:
    """A plausible row (its level and power drawn from every level and a range past each
    cap) with up to two fields given any generated value."""
    row = draw(PLAIN_ROW)
    for name in draw(st.lists(st.sampled_from(sorted(ROW_FIELDS)), max_size=2)):
        row[name] = draw(ROW_FIELDS[name])
    return row


CARD_ROW = card_rows()
SET_FUZZ: dict[str, st.SearchStrategy[str]] = {
    "name": NAMES,
    "box": _junk(Box.values),
    "kind": _junk(SetKind.values),
    "expected_copies": _number(0, 60),
    "starter_decks": _number(0, 8),
    "position": _number(0, 30),
}
PLAIN_SET = st.fixed_dictionaries(
    {
        "name": st.text("abcdefghijklmnopqrstuvwxyz", min_size=4, max_size=10).map("New {}".format),
        "box": st.sampled_from(Box.values),
        "kind": st.sampled_from(SetKind.values),
        "expected_copies": st.integers(1, 48).map(str),
    }
)


@st.composite
def set_fields(draw: st.DrawFn) -> dict[str, str]:
    """A plausible set (any kind, any box) with up to two fields given any generated value."""
    fields = draw(PLAIN_SET)
    for name in draw(st.lists(st.sampled_from(sorted(SET_FUZZ)), max_size=2)):
        fields[name] = draw(SET_FUZZ[name])
    return fields


SET_FIELDS = set_fields()
CARD_FIELDS = st.fixed_dictionaries(
    {
        "translations": st.sampled_from(
            ["{}", "", '{"ru": {"name": "Шут"}}', '{"de": {}}', '{"ru": "x"}', "[]"]
        ),
        "note": st.sampled_from(["", "checked"]),
        "effect": st.sampled_from(["", "Draws a card."]),
    }
)


@pytest.fixture
def curator(catalogue: LoadReport, admin_client: Client) -> Iterator[Client]:
    yield admin_client


def _page(client: Client, url: str) -> dict[str, Any]:
    answer = client.get(url)
    assert answer.status_code == 200
    return form_data(answer.content.decode())


def _rows(data: dict[str, Any], rows: list[dict[str, str]], *, start: int) -> dict[str, Any]:
    """``data`` with ``rows`` as the set page's card rows from index ``start`` on (a row
    replaces the page's own at that index, keeping its id; extra rows are new)."""
    for offset, row in enumerate(rows):
        index = start + offset
        data = {key: value for key, value in data.items() if not _is_field(key, index, row)}
        data |= {f"cards-{index}-{name}": value for name, value in row.items() if value}
    total = max(int(data["cards-TOTAL_FORMS"]), start + len(rows))
    return data | {"cards-TOTAL_FORMS": str(total)}


def _is_field(key: str, index: int, row: dict[str, str]) -> bool:
    prefix = f"cards-{index}-"
    return key.startswith(prefix) and key.removeprefix(prefix) in row


def _posted(client: Client, url: str, data: dict[str, Any]) -> None:
    """Post ``data`` in a savepoint rolled back after the rows are checked."""
    with transaction.atomic():
        answer = client.post(url, data)
        assert answer.status_code in (200, 302), answer.status_code
        _assert_every_row_keeps_the_rules()
        transaction.set_rollback(True)


def _assert_every_row_keeps_the_rules() -> None:
    for card_set in CardSet.objects.prefetch_related("cards"):
        assert card_set_errors(card_set) == {}, card_set.name
    for card in Card.objects.select_related("card_set"):
        assert card_errors(card) == {}, (card.card_set.name, card.name)


@FUZZ
@given(fields=SET_FIELDS, rows=st.lists(CARD_ROW, max_size=3))
def test_the_add_set_page_saves_no_rule_breaking_row(
    curator: Client, fields: dict[str, str], rows: list[dict[str, str]]
) -> None:
    data = _page(curator, "/admin/cards/cardset/add/") | fields
    _posted(curator, "/admin/cards/cardset/add/", _rows(data, rows, start=0))


@FUZZ
@given(
    chosen=st.sampled_from(["Shipwreck", "City", "Robot", "Castle"]),
    fields=st.dictionaries(st.sampled_from(["box", "kind", "name"]), st.text(max_size=3)),
    kind=st.sampled_from([{}, *({"kind": kind} for kind in SetKind.values)]),
    box=st.sampled_from([{}, *({"box": box} for box in Box.values)]),
    rows=st.lists(CARD_ROW, max_size=2),
    first=st.integers(0, 3),
)
def test_the_set_change_page_saves_no_rule_breaking_row(
    curator: Client,
    chosen: str,
    fields: dict[str, str],
    kind: dict[str, str],
    box: dict[str, str],
    rows: list[dict[str, str]],
    first: int,
) -> None:
    url = f"/admin/cards/cardset/{CardSet.objects.get(name=chosen).pk}/change/"
    data = _page(curator, url) | fields | kind | box
    _posted(curator, url, _rows(data, rows, start=first))


@FUZZ
@given(row=CARD_ROW, more=CARD_FIELDS, chosen=st.sampled_from(["Shipwreck", "Robot", "City"]))
def test_the_add_card_page_saves_no_rule_breaking_row(
    curator: Client, row: dict[str, str], more: dict[str, str], chosen: str
) -> None:
    data = _page(curator, "/admin/cards/card/add/") | row | more
    data["card_set"] = str(CardSet.objects.get(name=chosen).pk)
    _posted(curator, "/admin/cards/card/add/", {key: value for key, value in data.items() if value})


@FUZZ
@given(
    changes=st.dictionaries(st.sampled_from(sorted(ROW_FIELDS)), st.just(None)),
    row=CARD_ROW,
    more=CARD_FIELDS,
    moved=st.sampled_from([None, "Robot", "City", "Castle"]),
    chosen=st.sampled_from(["Shipwreck/Submarine", "Castle/Jester", "Robot/Cyborg"]),
)
def test_the_card_change_page_saves_no_rule_breaking_row(
    curator: Client,
    changes: dict[str, None],
    row: dict[str, str],
    more: dict[str, str],
    moved: str | None,
    chosen: str,
) -> None:
    set_name, name = chosen.split("/")
    card = Card.objects.filter(card_set__name=set_name, name=name).first() or Card.objects.first()
    assert card is not None
    url = f"/admin/cards/card/{card.pk}/change/"
    data = _page(curator, url) | {field: row[field] for field in changes} | more
    if moved is not None:
        data["card_set"] = str(CardSet.objects.get(name=moved).pk)
    _posted(curator, url, {key: value for key, value in data.items() if value})


def test_the_fuzzed_rules_are_the_models(catalogue: LoadReport) -> None:
    """The check the examples use refuses what the exploit set held."""
    shipwreck = CardSet.objects.get(name="Shipwreck")
    titan = Card(card_set=shipwreck, name="Titan", level="C", power=30000, copies=1)
    assert "power" in card_errors(titan)
