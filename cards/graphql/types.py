"""The catalogue's GraphQL objects: strawberry-django types of the ``Card`` and ``CardSet`` models.

Their fields are those of ``cards.shapes`` (``apikit.graphql_models.model_type``). Some fields
differ from the model's field of that name. Their optimizer hints say what each reads. So a page of
cards or sets is read in a fixed number of statements."""

from __future__ import annotations

import strawberry
import strawberry_django
from django.db.models import Prefetch
from strawberry_django.fields.field import StrawberryDjangoField

from apikit.graphql import Connection
from apikit.graphql_models import model_type, optimized
from apikit.graphql_pages import Page, page_of, paged
from cards import models, shapes
from cards.selectors import set_figures

SET = ("card_set",)  # the design's set, joined


def _key(root: models.Card) -> str:
    return f"{root.card_set.name}/{root.name}"


def _set(root: models.Card) -> str:
    return root.card_set.name


def _set_id(root: models.Card) -> int:
    return root.card_set_id


def _box(root: models.Card) -> str:
    return root.card_set.box


def _name(root: models.Card) -> str:
    return root.translated("name")


def _effect(root: models.Card) -> str:
    return root.translated("effect")


Card = model_type(
    shapes.Card,
    models.Card,
    {
        "key": strawberry_django.field(_key, only=("name", "card_set__name"), select_related=SET),
        "set": strawberry_django.field(_set, only=("card_set__name",), select_related=SET),
        "set_id": strawberry_django.field(_set_id, only=("card_set",)),
        "box": strawberry_django.field(_box, only=("card_set__box",), select_related=SET),
        "name": strawberry_django.field(_name, only=("name", "translations")),
        "effect": strawberry_django.field(_effect, only=("effect", "translations")),
    },
)
CardConnection = Connection[Card]  # type: ignore[valid-type]


def _figure(name: str) -> StrawberryDjangoField:
    """A field of ``card_set_list`` 's annotation ``name``, annotated only when selected."""
    return strawberry_django.field(annotate={name: set_figures()[name]})


def _playable(root: models.CardSet) -> bool:
    return root.missing == []  # type: ignore[attr-defined]  # cards.selectors.card_set_rows


def _missing(root: models.CardSet) -> list[str]:
    return root.missing or []  # type: ignore[attr-defined]


def _designs(info: strawberry.Info) -> Prefetch:
    """The set's designs, read for the selected fields."""
    return Prefetch("cards", queryset=optimized(models.Card.objects.all(), info))


@paged()
def _cards(root: models.CardSet, info: strawberry.Info, *, page: Page) -> CardConnection:
    return page_of(list(root.cards.all()), page)


CardSet = model_type(
    shapes.CardSet,
    models.CardSet,
    {
        "designs": _figure("designs"),
        "copy_total": _figure("copy_total"),
        "unknown_copies": _figure("unknown_copies"),
        "playable": strawberry_django.field(_playable, only=("name",)),
        "missing": strawberry_django.field(_missing, only=("name",)),
        "cards": strawberry_django.field(_cards, prefetch_related=(_designs,)),
    },
)
CardSetConnection = Connection[CardSet]  # type: ignore[valid-type]
