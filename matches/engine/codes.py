"""The machine-readable effect codes a card may carry, and the check the catalogue uses.

``EFFECT_PARAMS`` maps every known effect code to the parameter names it accepts. The engine's
registry of handlers is built from the same codes, so the catalogue (Django admin, the loader) and
the engine can never disagree about what a code means.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

EFFECT_PARAMS: dict[str, frozenset[str]] = {}


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
        raise EffectSpecError("unknown_effect_param", f"Effect {code!r} takes no parameter {names}.")
