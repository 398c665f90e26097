"""Every rule a card design or a card set must satisfy, in one place below the forms.

The model's ``clean`` calls these, so every path into the catalogue asks them. The admin's add and
change pages ask, card rows included. ``load_catalogue`` asks (``full_clean``). The playable check
of additional sets asks too (``cards.selectors.additional_set_problems``).

The rules of the game are the pure functions of ``cards.rules``. This module applies them to rows.

A card row's set is the one it is being saved into. That set may be unsaved yet. The "Add card
set" page checks its rows before the set has a primary key.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from cards.rules import Problem, level_error, power_error
from matches.engine.codes import EffectSpecError, validate_effect

if TYPE_CHECKING:
    from cards.models import Card, CardSet

# The languages a card's name and effect are translated into (English is the card's own fields).
TRANSLATED_LANGUAGES = ("zh-hans", "ru")
TRANSLATED_FIELDS = ("name", "effect")

# Effect errors about the code itself; the others are about a parameter (``effect_params``).
CODE_ERRORS = frozenset({"unknown_effect_code", "params_without_code"})

Errors = dict[str, Any]  # field name -> message (or a ValidationError carrying its code)


def card_errors(card: Card, card_set: CardSet | None = None) -> Errors:
    """What is wrong with ``card`` in ``card_set``, by field; {} when nothing is.

    ``card_set`` defaults to the card's own set."""
    parent = card_set if card_set is not None else card_parent(card)
    return {
        **_copies_errors(card),
        **_power_errors(card),
        **({} if parent is None else set_rule_errors(card, parent)),
        **_effect_errors(card),
        **_translation_errors(card),
    }


def card_valid(card: Card, card_set: CardSet | None = None) -> bool:
    return not card_errors(card, card_set)


def card_parent(card: Card) -> CardSet | None:
    """The set ``card`` is being saved into; None for no set.

    That is the related object when the form gave one, else the stored one. An unsaved set on the
    add page lacks an id."""
    field = type(card)._meta.get_field("card_set")
    if field.is_cached(card):
        parent: CardSet | None = card.card_set
        return parent
    return card.card_set if card.card_set_id is not None else None


def set_rule_errors(card: Card, card_set: CardSet) -> Errors:
    """A set kind's and box's rules on a card: its level, its base power's cap."""
    problem = level_error(kind=card_set.kind, level=card.level)
    if problem is not None:
        return {"level": _worded(problem)}
    if isinstance(card.power, int):
        problem = power_error(box=card_set.box, level=card.level, power=card.power)
        if problem is not None:
            return {"power": _worded(problem)}
    return {}


def _worded(problem: Problem) -> str:
    """A rule's problem in the active language."""
    text = _(problem.template)
    return text % problem.values if problem.values else text


def card_set_errors(card_set: CardSet) -> Errors:
    """What is wrong with ``card_set``, by field; {} when nothing is.

    A kind or box is wrong if the set's stored cards would break it. Its cards must follow it: move
    or fix them first."""
    if card_set.pk is None:
        return {}
    broken = [card.name for card in card_set.cards.all() if set_rule_errors(card, card_set)]
    if not broken:
        return {}
    names = ", ".join(sorted(broken)[:5]) + (", …" if len(broken) > 5 else "")
    message = _(
        "%(count)s card(s) of this set break the rules of a %(kind)s set of box %(box)s: "
        "%(names)s. Fix or move them first."
    )
    values = {"count": len(broken), "kind": card_set.kind, "box": card_set.box, "names": names}
    return {"kind": message % values}


def invalid_cards(cards: Iterable[Card]) -> list[Card]:
    """The ``cards`` (each with its set) breaking a rule."""
    return [card for card in cards if not card_valid(card)]


def _copies_errors(card: Card) -> Errors:
    for name in ("copies", "copies_per_starter_deck"):
        value = getattr(card, name)
        if isinstance(value, int) and value < 1:
            return {name: _("A card is printed at least once: give 1 or more, or leave it empty.")}
    return {}


def _power_errors(card: Card) -> Errors:
    if card.power_is_round:
        if card.power is not None:
            return {"power": _("Leave power empty when it equals the round.")}
        return {}
    if card.power is None:
        return {"power": _("Give a base power (or tick 'power is round').")}
    if card.power < 0:
        return {"power": _("Power cannot be negative.")}
    return {}


def _effect_errors(card: Card) -> Errors:
    """Check the effect code and each parameter's type and range (``codes.EFFECT_SCHEMAS``).

    So no saved value can make the engine fail in a match. Messages name the card."""
    name = card.name or _("This card")
    if not isinstance(card.effect_params, dict):
        message = _("%(name)s: effect parameters must be a JSON object.") % {"name": name}
        return {"effect_params": message}
    try:
        validate_effect(card.effect_code or None, card.effect_params)
    except EffectSpecError as error:
        field = "effect_code" if error.code in CODE_ERRORS else "effect_params"
        return {field: ValidationError(f"{name}: {error}", code=error.code)}
    return {}


def _translation_errors(card: Card) -> Errors:
    problem = translations_error(card.translations)
    return {} if problem is None else {"translations": problem}


def translations_error(translations: object) -> str | None:
    """What is wrong with a card's ``translations``, or None."""
    if not isinstance(translations, dict):
        return _("Translations are a JSON object keyed by language.")
    for language, texts in translations.items():
        if language not in TRANSLATED_LANGUAGES:
            message = _("No language %(language)s: translations are %(languages)s.")
            return message % {
                "language": repr(language),
                "languages": ", ".join(TRANSLATED_LANGUAGES),
            }
        if not isinstance(texts, dict) or set(texts) - set(TRANSLATED_FIELDS):
            return _("%(language)s: give an object with a name and an effect only.") % {
                "language": language
            }
        if not all(isinstance(text, str) for text in texts.values()):
            return _("%(language)s: the name and the effect are text.") % {"language": language}
    return None
