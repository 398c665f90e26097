"""Read-side queries of the card catalogue; the card API answers with ``cards.shapes``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Count, F, Func, Model, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from cards import shapes
from cards.models import Card, CardSet, SetKind
from cards.rules import PILE_LEVELS, additional_set_missing
from cards.validation import invalid_cards
from infra.errors import NotFoundError

M = TypeVar("M", bound=Model)
T = TypeVar("T")


def card_set_list() -> QuerySet[CardSet]:
    """Card sets, annotated with counts.

    ``designs`` counts the designs. ``copy_total`` counts known copies of the cards in play.
    ``unknown_copies`` counts designs in play with an unknown copy count.
    ``retired_copies`` counts known copies of retired cards, found nowhere else.

    The total leaves out the copies of retired cards, as a new tournament does. So the total and
    the playable check (``additional_set_problems``) tell one truth.
    """
    return CardSet.objects.annotate(**set_figures())


def set_figures() -> dict[str, Func]:
    """The annotations of ``card_set_list``, by name.

    GraphQL's set type asks for those its query selects."""
    per_card = Coalesce(
        F("cards__copies"), F("cards__copies_per_starter_deck") * F("starter_decks")
    )
    in_play, retired = Q(cards__retired=False), Q(cards__retired=True)
    unknown = Q(cards__copies__isnull=True, cards__copies_per_starter_deck__isnull=True)
    return {
        "designs": Count("cards"),
        "copy_total": Coalesce(Sum(per_card, filter=in_play), 0),
        "unknown_copies": Count("cards", filter=in_play & unknown),
        "retired_copies": Coalesce(Sum(per_card, filter=retired), 0),
    }


def card_set_rows(sets: QuerySet[CardSet]) -> list[CardSet]:
    """``sets`` read, each with ``missing``: what keeps it out of new tournaments.

    ``missing`` is None for a non-additional set. ``additional_set_problems`` tells it, in
    two more queries. A row read without its name is left without (``only``: nothing asked)."""
    found = list(sets)
    problems = additional_set_problems() if found else {}
    for card_set in found:
        named = "name" not in card_set.get_deferred_fields()
        card_set.missing = problems.get(card_set.name) if named else None  # type: ignore[attr-defined]
    return found


def card_list() -> QuerySet[Card]:
    return Card.objects.select_related("card_set")


def card_views(cards: Iterable[Card]) -> list[shapes.Card]:
    """``cards`` (a filtered ``card_list``, read here) as the API shows them.

    Names and effects are in the request's language."""
    return [_card_view(card, card.card_set) for card in cards]


@dataclass(frozen=True)
class Lookup:
    """How to find one row: conditions tried in turn, and ``not_found`` 's details."""

    wheres: tuple[Q, ...]
    details: dict[str, Any]


def first_of(rows: QuerySet[M], lookup: Lookup, read: Callable[[QuerySet[M]], list[T]]) -> T:
    """The first of ``rows`` that a condition of ``lookup`` finds, trying them in turn.

    ``read`` reads the rows. ``not_found`` when none matches."""
    for where in lookup.wheres:
        found = read(rows.filter(where)[:1])
        if found:
            return found[0]
    raise NotFoundError("not_found", _("No such object."), lookup.details)


def card_lookup(key: str) -> Lookup:
    """A design by its key ``"Set/Name"``.

    Its number still works, deprecated, until the next release."""
    if _is_number(key):
        return Lookup((Q(pk=int(key)),), {"card": int(key)})
    set_name, _slash, name = key.partition("/")
    return Lookup((Q(card_set__name=set_name, name=name),), {"card": key[:130]})


def card_set_lookup(name: str) -> Lookup:
    """A set by its name.

    Failing that, by its number: deprecated, until the next release."""
    if _is_number(name):
        return Lookup((Q(name=name), Q(pk=int(name))), {"card_set": int(name)})
    return Lookup((Q(name=name),), {"card_set": name[:60]})


def card_by_key(key: str) -> shapes.Card:
    """One design as the API shows it (``card_lookup``)."""
    card = first_of(card_list(), card_lookup(key), list)
    return _card_view(card, card.card_set)


def _is_number(text: str) -> bool:
    """A deprecated numeric id (a key always holds a ``/``)."""
    return text.isascii() and text.isdigit() and len(text) <= 12


def _card_view(card: Card, card_set: CardSet) -> shapes.Card:
    return shapes.Card(
        id=card.pk,
        key=f"{card_set.name}/{card.name}",
        set=card_set.name,
        set_id=card_set.pk,
        box=card_set.box,
        name=card.translated("name"),
        level=card.level,
        power=card.power,
        power_is_round=card.power_is_round,
        copies=card.copies,
        copies_per_starter_deck=card.copies_per_starter_deck,
        keyword=card.keyword,
        timing=card.timing,
        effect=card.translated("effect"),
        confidence=card.confidence,
        note=card.note,
        effect_code=card.effect_code,
        effect_params=card.effect_params,
        translations=card.translations,
        retired=card.retired,
        curated=card.curated,
    )


def card_set_views(sets: QuerySet[CardSet]) -> list[shapes.CardSet]:
    """``sets`` (a filtered ``card_set_list``) as REST shows them.

    Each says whether a new tournament may play it (``additional_set_problems``). GraphQL's
    ``cards`` are never sent."""
    problems = additional_set_problems()
    return [_card_set_view(card_set, problems) for card_set in sets]


def card_set_by_name(name: str) -> shapes.CardSet:
    """One set as REST shows it (``card_set_lookup``)."""
    return first_of(card_set_list(), card_set_lookup(name), card_set_views)


def _card_set_view(card_set: CardSet, problems: dict[str, list[str]]) -> shapes.CardSet:
    missing = problems.get(card_set.name)
    counted: Any = card_set  # card_set_list's annotations
    return shapes.CardSet(
        id=card_set.pk,
        name=card_set.name,
        box=card_set.box,
        kind=card_set.kind,
        expected_copies=card_set.expected_copies,
        starter_decks=card_set.starter_decks,
        designs=counted.designs,
        copy_total=counted.copy_total,
        unknown_copies=counted.unknown_copies,
        note=card_set.note,
        retired=card_set.retired,
        playable=missing == [],
        missing=missing or [],
        curated=card_set.curated,
        cards=[],  # GraphQL's alone (cards.graphql.types)
    )


def copy_warning(
    *, expected_copies: int, copy_total: int, unknown_copies: int, retired_copies: int = 0
) -> str | None:
    """Why a set's copies in play miss its expected total; None when they match.

    Retired cards' copies are left out, and named."""
    retired = f" ({retired_copies} more on retired cards)" if retired_copies else ""
    if unknown_copies:
        return (
            f"{unknown_copies} design(s) in play have no copy count: {copy_total} copies "
            f"known{retired} of {expected_copies} expected."
        )
    if copy_total != expected_copies:
        return (
            f"The cards in play hold {copy_total} copies{retired}, but the set should hold "
            f"{expected_copies}."
        )
    return None


def card_missing_translations(*, language: str) -> list[str]:
    """The ``"Set/Name"`` keys of cards the API shows in English for ``language``.

    Such a card's name, or its effect if any, has no translation."""
    missing = []
    for card in card_list().order_by("card_set__position", "name"):
        texts = (card.translations or {}).get(language) or {}
        wanted = ["name", "effect"] if card.effect else ["name"]
        if not all(texts.get(field) for field in wanted):
            missing.append(f"{card.card_set.name}/{card.name}")
    return missing


def additional_set_problems() -> dict[str, list[str]]:
    """Every additional set by name, with what keeps it out of new tournaments.

    An empty list means playable. It takes two queries. The first reads the copies, unknown copy
    counts and levels of each set's designs in play. The second reads those designs to check the
    rules.
    """
    in_play = Q(cards__retired=False)
    per_level = {
        f"has_{level}": Count("cards", filter=in_play & Q(cards__level=level))
        for level in PILE_LEVELS
    }
    rows = (
        CardSet.objects.filter(kind=SetKind.ADDITIONAL)
        .annotate(
            copies=Coalesce(Sum("cards__copies", filter=in_play), 0),
            unknown=Count("cards", filter=in_play & Q(cards__copies__isnull=True)),
            **per_level,
        )
        .values("name", "retired", "copies", "unknown", *per_level)
    )
    broken = _broken_designs()
    return {
        row["name"]: additional_set_missing(
            retired=row["retired"],
            copies=row["copies"],
            unknown_copies=row["unknown"],
            levels=frozenset(level for level in PILE_LEVELS if row[f"has_{level}"]),
            broken=broken.get(row["name"], 0),
        )
        for row in rows
    }


def _broken_designs() -> dict[str, int]:
    """Per additional set, its designs in play that break a rule, in one query.

    The rules are those every save checks (``cards.validation``). A row may still break one. It
    was stored before the rule existed, or written around the models."""
    in_play = card_list().filter(card_set__kind=SetKind.ADDITIONAL, retired=False)
    return dict(Counter(card.card_set.name for card in invalid_cards(in_play)))


def playable_sets() -> list[str]:
    """The additional sets a new tournament may play, in catalogue order."""
    return [name for name, missing in additional_set_problems().items() if not missing]
