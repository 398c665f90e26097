"""The shapes of a card's effect parameters, as ``codes.EFFECT_SCHEMAS`` checks them.

A catalogue entry's ``effect_params`` passes ``codes.validate_effect`` before a match reads it. So
the handlers (``effects``) read these keys at the types written here. Plain Python, not compiled: a
``TypedDict`` is a ``dict`` at run time.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class CardFilter(TypedDict, total=False):
    """Which cards an effect selects; all keys given must hold."""

    name: str
    set: str
    level: str
    power: int
    min_power: int
    max_power: int


class Condition(TypedDict, total=False):
    """When an effect applies (``when``); all keys given must hold."""

    trophies_at_most: int
    deck_at_most: int
    lost_previous: bool
    bench_has: CardFilter
    bench_lacks: CardFilter
    opponent_exhaust_at_least: int
    cards_beneath: bool


class Step(TypedDict):
    """One effect a ``steps`` effect runs, in order."""

    code: str
    params: NotRequired[EffectParams]


class EffectParams(TypedDict, total=False):
    """Every parameter an effect code may take.

    ``codes.EFFECT_SCHEMAS`` says which."""

    bonus: int
    bottom: int
    chooser: str
    count: int | str
    draw: int
    during: str
    during_attack: bool
    end: str
    exhaust: int
    factor: int
    filter: CardFilter
    group: int
    keep: int
    lowest: bool
    max: int
    min: int
    n: int
    name: str
    per: int
    permanent: bool
    pile: str
    reason: str
    side: str
    steps: list[Step]
    to: str
    when: Condition
