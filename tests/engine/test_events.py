"""Event shapes are defined once (``matches.engine.events``): every event a match records has the
fields of its kind's ``TypedDict``, and every kind says who may see it."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, get_args, get_type_hints

from matches.engine import MatchResult, RandomPolicy, play_match
from matches.engine.bench import mixed_setups
from matches.engine.events import (
    EVERYONE,
    KINDS,
    NOBODY,
    OWNER,
    OWNER_KINDS,
    PUBLIC_KINDS,
    SHAPES,
    SHOWN_TO,
    observe,
)


def played(n: int = 120) -> list[dict[str, Any]]:
    """The events of ``n`` random round-7 matches (both parks, the Robot, random answers)."""
    events = []
    for index, setup in enumerate(mixed_setups(n, 11)):
        setup = dataclasses.replace(
            setup,
            park="winter" if index % 2 else "normal",
            robot="B" if index % 5 == 0 else None,
        )
        policies = {"A": RandomPolicy(index), "B": RandomPolicy(-index - 1)}
        result = play_match(setup, index, policies)
        assert isinstance(result, MatchResult)
        events += result.events
    return events


def test_each_kind_names_its_own_shape() -> None:
    for kind, (shape, _) in SHAPES.items():
        (literal,) = get_args(get_type_hints(shape)["kind"])
        assert literal == kind


def test_each_kind_is_shown_to_everyone_its_owner_or_nobody_and_the_deck_orders_to_nobody() -> None:
    assert set(SHOWN_TO.values()) <= {EVERYONE, OWNER, NOBODY}
    assert PUBLIC_KINDS | OWNER_KINDS | {k for k in KINDS if SHOWN_TO[k] == NOBODY} == set(KINDS)
    assert not PUBLIC_KINDS & OWNER_KINDS
    assert SHOWN_TO["shuffle"] == NOBODY
    assert {"question", "answer", "arranged"} == OWNER_KINDS


def test_every_recorded_event_has_the_fields_of_its_kind_and_every_kind_occurs() -> None:
    events = played()
    seen: Counter[str] = Counter()
    for seq, event in enumerate(events):
        kind = event["kind"]
        shape = SHAPES[kind][0]
        required = set(shape.__required_keys__)  # type: ignore[attr-defined]
        allowed = required | set(shape.__optional_keys__)  # type: ignore[attr-defined]
        assert required <= set(event) <= allowed, (kind, sorted(event))
        seen[kind] += 1
        assert isinstance(event["seq"], int) and seq >= 0
    assert set(seen) == set(KINDS)


def test_the_observer_is_the_engines_declaration() -> None:
    from matches import observer

    assert observer.observe is observe
