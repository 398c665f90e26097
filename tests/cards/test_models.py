"""Card rules in the model and in the database."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cards.catalogue import LoadReport
from cards.models import Card, CardSet
from cards.rules import level_error, power_error


@pytest.mark.parametrize(
    ("box", "level", "power", "ok"),
    [
        ("base", "A", 3, True),
        ("base", "A", 4, False),
        ("beach_cup", "A", 4, True),
        ("base", "B", 6, False),
        ("beach_cup", "B", 7, True),
        ("base", "C", 10, True),
        ("beach_cup", "C", 12, False),
        ("base", "S", 40, True),
        ("base", "C", -1, False),
    ],
)
def test_power_caps_follow_the_box(box: str, level: str, power: int, ok: bool) -> None:
    assert (power_error(box=box, level=level, power=power) is None) is ok


@pytest.mark.parametrize(
    ("kind", "level", "ok"),
    [
        ("additional", "B", True),
        ("basic", "S", False),
        ("starter", "S", True),
        ("starter", "A", False),
        ("robot", "SOLO", True),
        ("robot", "C", False),
    ],
)
def test_levels_follow_the_set_kind(kind: str, level: str, ok: bool) -> None:
    assert (level_error(kind=kind, level=level) is None) is ok


def test_clean_wants_a_power_or_round(catalogue: LoadReport) -> None:
    card = Card.objects.get(card_set__name="Robot", name="Cyborg")
    card.power = 3
    with pytest.raises(ValidationError, match="Leave power empty"):
        card.full_clean()
    card.power, card.power_is_round = None, False
    with pytest.raises(ValidationError, match="Give a base power"):
        card.full_clean()


def test_the_database_refuses_a_negative_power(catalogue: LoadReport) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(name="Submarine").update(power=-1)


def test_the_database_refuses_a_duplicate_design(catalogue: LoadReport) -> None:
    castle = CardSet.objects.get(name="Castle")
    original = castle.cards.first()
    assert original is not None
    original.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        original.save()
