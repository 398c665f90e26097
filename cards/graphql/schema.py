"""Card sets and cards: types, and the root ``Query`` fields ``cardSets`` and ``cards``."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
import strawberry_django
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from strawberry.scalars import JSON

from cards.api.filters import CardFilter, CardSetFilter
from cards.enums import Box, CardLevel, CardSetKind, CardTiming, Confidence
from cards.models import Card, CardSet
from cards.selectors import additional_set_problems, card_list, card_set_list
from config.errors import ApplicationError
from config.graphql import Connection, require_known_caller
from config.graphql_pages import Page, page_of, paged, sliced


@strawberry_django.type(Card, description="A card design of the catalogue.")
class CardType:
    id: int = strawberry_django.field(description="The design's id.")
    level: CardLevel = strawberry_django.field(description="S, A, B, C, R or SOLO.")
    power: int | None = strawberry_django.field(description="Base power; null if round.")
    power_is_round: bool = strawberry_django.field(description="Power equals the round.")
    copies: int | None = strawberry_django.field(description="Copies in its set, if known.")
    copies_per_starter_deck: int | None = strawberry_django.field(
        description="Copies in each starter deck (starter cards)."
    )
    keyword: str = strawberry_django.field(description="The keyword, or empty.")
    timing: CardTiming = strawberry_django.field(description="When the effect acts.")
    translations: JSON = strawberry_django.field(
        description='Every translation: {"zh-hans": {"name", "effect"}, "ru": …}.'
    )
    confidence: Confidence = strawberry_django.field(description="How sure the catalogue is of it.")
    note: str = strawberry_django.field(description="The catalogue's note.")
    effect_code: str | None = strawberry_django.field(description="The engine's effect code.")
    effect_params: JSON = strawberry_django.field(description="The effect's parameters.")
    retired: bool = strawberry_django.field(description="Left out of new tournaments.")
    curated: bool = strawberry_django.field(description="Edited by an admin.")

    @strawberry_django.field(
        description="The name in the requested language (English when untranslated).",
        only=["name", "translations"],
    )
    def name(self, root: Card) -> str:
        return root.translated("name")

    @strawberry_django.field(
        description="A paraphrase of the printed effect, in the requested language.",
        only=["effect", "translations"],
    )
    def effect(self, root: Card) -> str:
        return root.translated("effect")

    @strawberry_django.field(
        description='"Set/Name", the key tournaments use.', select_related=["card_set"]
    )
    def key(self, root: Card) -> str:
        return f"{root.card_set.name}/{root.name}"

    @strawberry_django.field(description="The set's name.", select_related=["card_set"])
    def set(self, root: Card) -> str:
        return root.card_set.name

    @strawberry_django.field(description="base or beach_cup.", select_related=["card_set"])
    def box(self, root: Card) -> Box:
        return root.card_set.box


@strawberry_django.type(CardSet, description="A card set and its copy counts.")
class CardSetType:
    id: int = strawberry_django.field(description="The set's id.")
    name: str = strawberry_django.field(description="Its name, e.g. Castle.")
    box: Box = strawberry_django.field(description="base or beach_cup.")
    kind: CardSetKind = strawberry_django.field(description="basic, additional, starter or robot.")
    expected_copies: int = strawberry_django.field(description="Copies the set should hold.")
    starter_decks: int = strawberry_django.field(description="Starter decks the set makes.")
    note: str = strawberry_django.field(description="The catalogue's note.")
    retired: bool = strawberry_django.field(description="Never offered to new tournaments.")
    curated: bool = strawberry_django.field(description="Edited by an admin.")

    @strawberry.field(description="Its card designs, in catalogue order.")
    @paged()
    def cards(self, root: Any, page: Page) -> Connection[CardType]:
        designs: list[Card] = list(root.cards.all())  # prefetched with the sets (card_sets)
        return page_of(designs, page)  # type: ignore[arg-type]

    @strawberry.field(description="Card designs in the set.")
    def designs(self, root: Any) -> int:
        return int(root.designs)

    @strawberry.field(description="Copies the catalogue knows.")
    def copy_total(self, root: Any) -> int:
        return int(root.copy_total)

    @strawberry.field(description="An additional set a new tournament may choose.")
    def playable(self, root: Any, info: strawberry.Info) -> bool:
        return _set_problems(info).get(root.name) == []

    @strawberry.field(description="What keeps an additional set out of new tournaments.")
    def missing(self, root: Any, info: strawberry.Info) -> list[str]:
        return _set_problems(info).get(root.name) or []


def _set_problems(info: strawberry.Info) -> dict[str, list[str]]:
    """``additional_set_problems`` once per request, whatever the number of sets asked."""
    request = info.context.request
    problems: dict[str, list[str]] | None = getattr(request, "_set_problems", None)
    if problems is None:
        problems = additional_set_problems()
        request._set_problems = problems
    return problems

    @strawberry.field(description="Designs whose copy count the catalogue does not know.")
    def unknown_copies(self, root: Any) -> int:
        return int(root.unknown_copies)


def _filtered(filterset: Any, data: dict[str, Any], queryset: QuerySet[Any]) -> QuerySet[Any]:
    """``queryset`` through the REST FilterSet: a bad value is ``invalid``, as in REST."""
    applied = filterset(data={k: v for k, v in data.items() if v is not None}, queryset=queryset)
    if not applied.is_valid():
        errors = {k: [str(m) for m in v] for k, v in applied.errors.items()}
        raise ApplicationError("invalid", _("Invalid input."), errors)
    return applied.qs


def _page(queryset: QuerySet[Any], page: Page) -> Connection[Any]:
    """``page`` of ``queryset``: its slice and its count (two queries)."""

    def read(offset: int, limit: int) -> tuple[list[Any], int]:
        return list(queryset[offset : offset + limit]), queryset.count()

    return sliced(read, page)


@strawberry.type
class Query:
    @strawberry.field(description="Card sets, optionally of one box.")
    @paged()
    def card_sets(
        self,
        info: strawberry.Info,
        box: Annotated[str | None, strawberry.argument(description="base or beach_cup.")] = None,
        *,
        page: Page,
    ) -> Connection[CardSetType]:
        require_known_caller(info)  # a bad token is refused here as in REST
        found = _filtered(CardSetFilter, {"box": box}, card_set_list())
        return _page(found.prefetch_related("cards__card_set"), page)

    @strawberry.field(description="Card designs, filtered as REST's `/api/v1/cards/`.")
    @paged()
    def cards(
        self,
        info: strawberry.Info,
        box: Annotated[str | None, strawberry.argument(description="base or beach_cup.")] = None,
        set: Annotated[
            str | None,
            strawberry.argument(description="Set name (an unknown set is `unknown_set`)."),
        ] = None,
        level: Annotated[
            str | None, strawberry.argument(description="S, A, B, C, R, SOLO.")
        ] = None,
        keyword: Annotated[
            str | None, strawberry.argument(description="Keyword (any case).")
        ] = None,
        timing: Annotated[str | None, strawberry.argument(description="Effect timing.")] = None,
        key: Annotated[str | None, strawberry.argument(description='"Set/Name".')] = None,
        search: Annotated[
            str | None,
            strawberry.argument(description="Words of the name or effect text (any case)."),
        ] = None,
        *,
        page: Page,
    ) -> Connection[CardType]:
        require_known_caller(info)
        data = {"box": box, "set": set, "level": level, "keyword": keyword, "timing": timing}
        found = _filtered(CardFilter, {**data, "search": search}, card_list())
        if key is not None:
            set_name, _slash, name = key.partition("/")
            found = found.filter(card_set__name=set_name, name=name)
        return _page(found, page)
