"""Effect parameter values (``codes.EFFECT_SCHEMAS``): the catalogue's own values pass; a wrong
type, an out-of-range value, an unknown key and a missing required key are refused with a message
naming the parameter; and every value that passes plays without an engine error."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, cast

import pytest

from matches.engine import MatchResult, MatchSetup, RandomPolicy, load_catalogue, play_match
from matches.engine.cards import CardSpec
from matches.engine.codes import (
    CONDITION_TABLE,
    COUNTS,
    DURINGS,
    EFFECT_SCHEMAS,
    FILTER_TABLE,
    PICKED_CODES,
    STEP_CODES,
    EffectSpecError,
    Flag,
    Int,
    Obj,
    OneOf,
    Param,
    Steps,
    Text,
    validate_effect,
)
from matches.engine.effects import _COUNTS, DURING, HANDLERS
from matches.engine.params import EffectParams
from tests.engine.cards import CHAMPION, DOG, DRAGON, NEWCOMER, PIG, TALENT

SPECS = load_catalogue()
# One card of the catalogue per effect code: its params are the valid base a test changes.
CARD_OF_CODE: dict[str, CardSpec] = {}
for _spec in SPECS.values():
    if _spec.effect_code and _spec.effect_code not in CARD_OF_CODE:
        CARD_OF_CODE[_spec.effect_code] = _spec
PARAMS = [(code, name) for code, table in EFFECT_SCHEMAS.items() for name in table]


def _refused(code: str, params: Mapping[str, Any]) -> EffectSpecError:
    with pytest.raises(EffectSpecError) as caught:
        validate_effect(code, params)
    return caught.value


def _wrong_types(param: Param) -> list[Any]:
    if isinstance(param, Int):
        return ["two", 2.0, True, None]
    if isinstance(param, Flag):
        return [1, "yes", None]
    if isinstance(param, (OneOf, Text)):
        return [3, ["top"], None]
    if isinstance(param, Steps):
        return [{"code": "self_to"}, "steps"]
    return ["x", [], 3]


def _out_of_range(param: Param) -> list[Any]:
    if isinstance(param, Int):
        return [param.low - 1, param.high + 1, -5 if param.low > -5 else 1000]
    if isinstance(param, OneOf):
        return ["sideways", "", param.choices[0] + " "]
    if isinstance(param, Text):
        return ["", "   ", "x" * (param.longest + 1)]
    if isinstance(param, Steps):
        return [[], [{"code": "self_to", "params": {"to": "exhaust"}}] * (param.longest + 1)]
    return []  # a flag has no range; an object's range is its keys (tested below)


# ---------------------------------------------------------------- the catalogue's own values


@pytest.mark.parametrize("code", sorted(EFFECT_SCHEMAS))
def test_the_catalogue_params_of_every_code_pass(code: str) -> None:
    cards = [s for s in SPECS.values() if s.effect_code == code]
    assert cards, f"no catalogue card uses {code}"
    for spec in cards:
        validate_effect(code, spec.effect_params)


# ---------------------------------------------------------------- each parameter


@pytest.mark.parametrize(("code", "name"), PARAMS)
def test_a_wrong_type_is_refused_naming_the_parameter(code: str, name: str) -> None:
    param = EFFECT_SCHEMAS[code][name]
    for value in _wrong_types(param):
        error = _refused(code, {**CARD_OF_CODE[code].effect_params, name: value})
        assert (error.code, error.param) == ("bad_effect_param", name), value
        assert f"parameter {name!r}" in str(error)


@pytest.mark.parametrize(("code", "name"), PARAMS)
def test_an_out_of_range_value_is_refused_naming_the_parameter(code: str, name: str) -> None:
    param = EFFECT_SCHEMAS[code][name]
    if isinstance(param, Obj):
        error = _refused(code, {**CARD_OF_CODE[code].effect_params, name: {"colour": "red"}})
        assert (error.code, error.param) == ("unknown_effect_param", f"{name}.colour")
        return
    values = _out_of_range(param)
    assert values or isinstance(param, Flag)
    for value in values:
        error = _refused(code, {**CARD_OF_CODE[code].effect_params, name: value})
        assert (error.code, error.param) == ("effect_param_out_of_range", name), value
        assert f"parameter {name!r}" in str(error)


@pytest.mark.parametrize(("code", "name"), PARAMS)
def test_a_missing_key_is_refused_when_the_effect_needs_it(code: str, name: str) -> None:
    params = {k: v for k, v in CARD_OF_CODE[code].effect_params.items() if k != name}
    if not EFFECT_SCHEMAS[code][name].required:
        validate_effect(code, params)  # the handler has a default
        return
    error = _refused(code, params)
    assert (error.code, error.param) == ("missing_effect_param", name)
    assert str(error) == f"Effect {code!r}: parameter {name!r} is required."


@pytest.mark.parametrize("code", sorted(EFFECT_SCHEMAS))
def test_an_unknown_key_is_refused(code: str) -> None:
    error = _refused(code, {**CARD_OF_CODE[code].effect_params, "colour": "red"})
    assert (error.code, error.param) == ("unknown_effect_param", "colour")
    assert str(error) == f"Effect {code!r} takes no parameter colour."


@pytest.mark.parametrize(("table", "key"), [("filter", k) for k in FILTER_TABLE])
def test_each_filter_key_is_checked_inside_a_filter(table: str, key: str) -> None:
    param = FILTER_TABLE[key]
    for value in [*_wrong_types(param), *_out_of_range(param)]:
        error = _refused("bench_aura", {"bonus": 1, "filter": {key: value}})
        assert error.param == f"filter.{key}", value


@pytest.mark.parametrize("key", sorted(CONDITION_TABLE))
def test_each_condition_key_is_checked_inside_a_condition(key: str) -> None:
    param = CONDITION_TABLE[key]
    for value in [*_wrong_types(param), *_out_of_range(param)]:
        error = _refused("gain_fans", {"n": 1, "when": {key: value}})
        assert error.param == f"when.{key}", value


# ---------------------------------------------------------------- cards an admin may get wrong


@pytest.mark.parametrize(
    ("card", "params", "message"),
    [
        ("City/Reporter", {"n": "two"}, "parameter 'n' must be a whole number, not 'two'"),
        ("City/Reporter", {"n": -5}, "parameter 'n' must be from 1 to 10, not -5"),
        ("City/Reporter", {}, "parameter 'n' is required"),
        ("City/Reporter", {"n": 2, "bottom": "1"}, "parameter 'bottom' must be a whole number"),
        ("University/Personal Coach", {"per": 1, "group": 0}, "'group' must be from 1 to 20"),
        ("Castle/Blacksmith", {"bonus": 1, "during": "sometimes"}, "'during' must be one of"),
        ("Film Studio/Villain", {"pile": "D"}, "parameter 'pile' must be one of 'A', 'B', 'C'"),
        (
            "Castle/Hermit",
            {"bonus": 2, "when": {"bench_lacks": {"set": 3}}},
            "'when.bench_lacks.set'",
        ),
        ("Castle/Knight", {"per": 1, "count": "dragons"}, "parameter 'count' must be one of"),
        ("Fairytale Forest/Troll", {"n": 0}, "parameter 'n' must be from 1 to 6, not 0"),
        ("Outer Space/Rescue Pod", {"steps": [{"code": "bench_aura"}]}, "'steps.0.code' must be"),
        (
            "Outer Space/Rescue Pod",
            {"steps": [{"code": "pile_to_exhaust"}]},
            "'steps.0.params.pile'",
        ),
        ("Beach Club/Surf Teacher", {"pile": "A", "draw": "3"}, "'draw' must be a whole"),
    ],
)
def test_a_bad_value_an_admin_might_type_is_refused(
    card: str, params: dict[str, Any], message: str
) -> None:
    code = SPECS[card].effect_code
    assert code is not None
    assert message in str(_refused(code, params))


def test_params_that_are_not_an_object_are_refused() -> None:
    error = _refused("arrange_top", -5)  # type: ignore[arg-type]
    assert error.code == "bad_effect_param"
    assert "must be an object" in str(error)


# ---------------------------------------------------------------- the tables match the engine


def test_the_words_the_tables_accept_are_the_words_the_handlers_read() -> None:
    assert set(COUNTS) == set(_COUNTS)
    assert set(DURINGS) == set(DURING)
    triggers = {code for code, (slot, _) in HANDLERS.items() if slot == "trigger"}
    assert triggers - {"steps"} == STEP_CODES


def _boundaries(param: Param) -> list[Any]:
    if isinstance(param, Int):
        return [param.low, param.high]
    if isinstance(param, OneOf):
        return list(param.choices)
    if isinstance(param, Flag):
        return [False, True]
    if isinstance(param, Text):
        return ["Newcomer", "x" * param.longest]
    return []  # objects and steps: the catalogue's own values


def _accepted_variants() -> Iterator[tuple[str, dict[str, Any]]]:
    for code, table in EFFECT_SCHEMAS.items():
        if code in PICKED_CODES:
            continue
        base = dict(CARD_OF_CODE[code].effect_params)
        for name, param in table.items():
            for value in _boundaries(param):
                yield code, {**base, name: value}


def _deck(prefix: str, card: str) -> tuple[tuple[str, str], ...]:
    keys = [card, NEWCOMER, card, TALENT, DOG, card, PIG, CHAMPION, DRAGON, NEWCOMER]
    return tuple((f"{prefix}{i}", key) for i, key in enumerate(keys))


@pytest.mark.parametrize(("code", "params"), list(_accepted_variants()))
def test_every_accepted_boundary_value_plays_without_an_engine_error(
    code: str, params: dict[str, Any]
) -> None:
    validate_effect(code, params)
    spec = dataclasses.replace(CARD_OF_CODE[code], effect_params=cast(EffectParams, params))
    specs = {**SPECS, spec.key: spec}
    piles = {p: tuple((f"{p}{i}", k) for i, k in enumerate([PIG, DRAGON])) for p in "ABC"}
    setup = MatchSetup(
        decks={"A": _deck("a", spec.key), "B": _deck("b", spec.key)},
        round=7,
        piles=piles,
        trophies={"A": 2, "B": 3},
        fans={"A": 6, "B": 1},
        specs=specs,
    )
    for seed in range(3):
        policies = {"A": RandomPolicy(seed), "B": RandomPolicy(seed + 1)}
        result = play_match(setup, seed, policies)
        assert isinstance(result, MatchResult) and result.winner in ("A", "B")
