"""The machine-readable effect codes a card may carry, and the check the catalogue uses.

``EFFECT_PARAMS`` maps every known effect code to the parameter names it accepts. The engine's
registry of handlers (``matches.engine.effects.HANDLERS``) is built for exactly these codes (a
test and an import-time check keep them equal), so the catalogue (Django admin, the loader) and
the engine can never disagree about what a code means. ``PICKED_CODES`` are the When picked codes
the Deck Phase (tournament rules) handles; the match engine ignores them.

Shared sub-languages (validated here too):

* a **filter** selects cards: ``{"name": "Newcomer", "set": "City", "level": "B", "power": 3,
  "min_power": 4, "max_power": 3}`` (all optional, all must hold; ``set`` means "carries that set's
  icon", so a Rainbow card matches every set in play; powers are base powers).
* a **condition** (``when``) gates an effect: ``{"trophies_at_most": 3, "deck_at_most": 1,
  "lost_previous": true, "bench_has": filter, "bench_lacks": filter,
  "opponent_exhaust_at_least": 1, "cards_beneath": true}`` (all given must hold).
* ``steps`` runs several effects in order: ``{"steps": [{"code": ..., "params": {...}}, ...]}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_BENCH_MOVE = frozenset({"min", "max", "filter", "side", "chooser", "lowest", "bonus"})

EFFECT_PARAMS: dict[str, frozenset[str]] = {
    # power snapshots when revealed (they stay with the card)
    "power_if": frozenset({"bonus", "when"}),
    "power_per_bench_card": frozenset({"per", "filter", "side"}),
    "power_per_bench_icon": frozenset({"per", "side"}),
    "power_per_distinct_power": frozenset({"per"}),
    "power_per_empty_seat": frozenset({"per"}),
    "power_per_fan_tokens": frozenset({"per", "group"}),
    "power_per_card_in_seat": frozenset({"per"}),
    "next_reveal_bonus": frozenset({"bonus", "during_attack"}),
    # lasting modifiers
    "attack_bonus": frozenset({"per", "count"}),
    "flag_bonus": frozenset({"per", "count"}),
    "bench_aura": frozenset({"bonus", "filter", "during"}),
    "fans_per_attacker_reveal": frozenset({"n"}),
    # fans and match end
    "gain_fans": frozenset({"n", "side", "when"}),
    "lose_if": frozenset({"when", "reason"}),
    # moving cards
    "bench_to_exhaust": _BENCH_MOVE,
    "bench_to_deck_top": _BENCH_MOVE,
    "bench_remove": _BENCH_MOVE,
    "seat_to_exhaust": frozenset(),
    "deck_to_exhaust": frozenset({"side", "end", "when"}),
    "deck_to_bench": frozenset({"side"}),
    "exhaust_to_deck": frozenset({"to"}),
    "pile_to_deck": frozenset({"pile", "n", "to", "side"}),
    "pile_to_exhaust": frozenset({"pile", "n"}),
    "arrange_top": frozenset({"n", "bottom", "exhaust"}),
    "peek_move": frozenset({"end"}),
    "search_deck": frozenset({"to"}),
    "self_to": frozenset({"to"}),
    "steps": frozenset({"steps"}),
    # static rule changes (Special keyword, Streamer, Cyborg)
    "bench_redirect": frozenset({"to"}),
    "exhaust_redirect": frozenset({"to"}),
    "bench_seat_as": frozenset({"name"}),
    "bench_seats": frozenset({"n"}),
    "double_bonuses": frozenset({"factor"}),
    "power_equals_round": frozenset(),
    # When picked (Deck Phase; handled by tournaments.rules, not the match engine)
    "picked_gain_fans": frozenset({"n"}),
    "picked_remove_for_extra_pick": frozenset({"count", "filter", "permanent"}),
    "picked_must_remove": frozenset({"count", "filter", "permanent"}),
    "picked_draw_keep": frozenset({"pile", "draw", "keep"}),
}

PICKED_CODES = frozenset(code for code in EFFECT_PARAMS if code.startswith("picked_"))

FILTER_KEYS = frozenset({"name", "set", "level", "power", "min_power", "max_power"})
CONDITION_KEYS = frozenset(
    {
        "trophies_at_most",
        "deck_at_most",
        "lost_previous",
        "bench_has",
        "bench_lacks",
        "opponent_exhaust_at_least",
        "cards_beneath",
    }
)


class EffectSpecError(ValueError):
    """A card's machine-readable effect is not one the engine knows."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def validate_effect(code: str | None, params: Mapping[str, Any]) -> None:
    """Raise ``EffectSpecError`` unless ``code`` and ``params`` name a known effect."""
    if code is None:
        if params:
            raise EffectSpecError("params_without_code", "Effect parameters need an effect code.")
        return
    allowed = EFFECT_PARAMS.get(code)
    if allowed is None:
        raise EffectSpecError("unknown_effect_code", f"Unknown effect code {code!r}.")
    unknown = set(params) - allowed
    if unknown:
        names = ", ".join(sorted(unknown))
        message = f"Effect {code!r} takes no parameter {names}."
        raise EffectSpecError("unknown_effect_param", message)
    _validate_nested(code, params)


def _validate_nested(code: str, params: Mapping[str, Any]) -> None:
    """Check the filter, condition and steps sub-languages inside ``params``."""
    if "filter" in params:
        _check_keys(params["filter"], FILTER_KEYS, "filter", code)
    if "when" in params:
        when = params["when"]
        _check_keys(when, CONDITION_KEYS, "condition", code)
        for key in ("bench_has", "bench_lacks"):
            if key in when:
                _check_keys(when[key], FILTER_KEYS, "filter", code)
    if code == "steps":
        steps = params.get("steps")
        if not isinstance(steps, list) or not steps:
            raise EffectSpecError("bad_effect_param", "Effect 'steps' needs a list of steps.")
        for step in steps:
            if not isinstance(step, Mapping) or "code" not in step or step["code"] == "steps":
                raise EffectSpecError("bad_effect_param", "Each step needs a (non-steps) code.")
            validate_effect(step["code"], step.get("params") or {})


def _check_keys(value: Any, allowed: frozenset[str], what: str, code: str) -> None:
    if not isinstance(value, Mapping):
        raise EffectSpecError("bad_effect_param", f"Effect {code!r}: the {what} must be an object.")
    unknown = set(value) - allowed
    if unknown:
        names = ", ".join(sorted(unknown))
        message = f"Effect {code!r}: unknown {what} key {names}."
        raise EffectSpecError("unknown_effect_param", message)
