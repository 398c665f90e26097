"""The catalogue's machine-readable effects: complete, valid, and each one tested."""

from __future__ import annotations

import importlib
import json

import pytest

from matches.engine import load_catalogue
from matches.engine.cards import CATALOGUE_PATH, resolve_card
from matches.engine.codes import EFFECT_PARAMS, PICKED_CODES, EffectSpecError, validate_effect
from matches.engine.effects import HANDLERS
from tests.engine.scene import COVERED

CARD_TEST_MODULES = (
    "tests.engine.test_cards_base",
    "tests.engine.test_cards_robot",
    "tests.engine.test_cards_beach",
)
SPECS = load_catalogue()
EFFECT_CARDS = sorted(k for k, s in SPECS.items() if s.timing not in ("plain", "when_picked"))
PICKED_CARDS = sorted(k for k, s in SPECS.items() if s.timing == "when_picked")


def test_every_card_with_an_effect_has_an_effect_code_and_plain_cards_have_none() -> None:
    for spec in SPECS.values():
        if spec.timing == "plain":
            assert spec.effect_code is None and not spec.effect_params, spec.key
        else:
            assert spec.effect_code is not None, spec.key


@pytest.mark.parametrize("key", [k for k in SPECS if SPECS[k].effect_code])
def test_every_effect_code_validates(key: str) -> None:
    spec = SPECS[key]
    validate_effect(spec.effect_code, spec.effect_params)


@pytest.mark.parametrize("key", PICKED_CARDS)
def test_when_picked_cards_carry_a_picked_code(key: str) -> None:
    assert SPECS[key].effect_code in PICKED_CODES


def test_every_card_with_an_effect_has_a_unit_test() -> None:
    for name in CARD_TEST_MODULES:
        importlib.import_module(name)
    assert sorted(set(EFFECT_CARDS) - COVERED) == []


def test_the_registry_handles_exactly_the_codes_the_catalogue_may_use() -> None:
    assert set(HANDLERS) == set(EFFECT_PARAMS) - PICKED_CODES
    used = {s.effect_code for s in SPECS.values() if s.effect_code}
    assert used <= set(EFFECT_PARAMS)


def test_validate_effect_refuses_unknown_codes_params_and_filter_keys() -> None:
    with pytest.raises(EffectSpecError) as exc:
        validate_effect("teleport", {})
    assert exc.value.code == "unknown_effect_code"
    with pytest.raises(EffectSpecError) as exc:
        validate_effect("gain_fans", {"n": 1, "colour": "red"})
    assert exc.value.code == "unknown_effect_param"
    with pytest.raises(EffectSpecError):
        validate_effect("bench_to_exhaust", {"filter": {"colour": "red"}})
    with pytest.raises(EffectSpecError):
        validate_effect("steps", {"steps": [{"code": "nope", "params": {}}]})
    with pytest.raises(EffectSpecError) as exc:
        validate_effect(None, {"n": 1})
    assert exc.value.code == "params_without_code"
    validate_effect(None, {})


def test_the_catalogue_file_keeps_its_formatting() -> None:
    text = CATALOGUE_PATH.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), indent=1, ensure_ascii=False)


def test_a_unique_name_resolves_alone_and_an_ambiguous_one_defaults_to_the_base_starter() -> None:
    assert resolve_card("Prince").key == "Castle/Prince"
    assert resolve_card("Newcomer").key == "Starter/Newcomer"
    assert resolve_card("Beach Club/Newcomer").key == "Beach Club/Newcomer"
    assert SPECS["Robot/Cyborg"].power_is_round
    assert SPECS["Rainbow/DJ"].icons >= {"Castle", "Beach Club", "Rainbow"}
    assert SPECS["Starter/Dog"].icons == frozenset({"City"})
    assert SPECS["Beach Cup Starter/Dog"].icons == frozenset({"City"})
    assert SPECS["Robot/Alpha"].icons == frozenset({"Robot"})
