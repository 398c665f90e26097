"""The engine's effect codes as a curator reads them, for the admin's code list.

Each code comes with its parameters' types and ranges. They come from
``matches.engine.codes.EFFECT_SCHEMAS``, the table the engine is checked against."""

from __future__ import annotations

from collections.abc import Mapping

from matches.engine.codes import EFFECT_SCHEMAS, Flag, Int, Obj, OneOf, Param, Steps, Text


def param_text(param: Param) -> str:
    """One parameter's type and range in words (``*``: required)."""
    required = "*" if param.required else ""
    if isinstance(param, Int):
        return f"{required}whole number {param.low}..{param.high}"
    if isinstance(param, Flag):
        return f"{required}true/false"
    if isinstance(param, OneOf):
        words = param.label or "|".join(param.choices)
        return f"{required}{words}"
    if isinstance(param, Text):
        return f"{required}text (1-{param.longest})"
    if isinstance(param, Obj):
        return f"{required}{param.what}"
    if isinstance(param, Steps):
        return f"{required}1-{param.longest} steps"
    return required + type(param).__name__


def code_text(code: str, table: Mapping[str, Param]) -> str:
    """A code's label in the admin's list: ``code (name: type, …)``."""
    if not table:
        return f"{code} (no parameters)"
    names = ", ".join(f"{name}: {param_text(param)}" for name, param in sorted(table.items()))
    return f"{code} ({names})"


def code_choices() -> list[tuple[str, str]]:
    """Every known code, sorted, as (code, label).

    The empty code "" comes first, for a card without an effect."""
    labelled = [(code, code_text(code, table)) for code, table in sorted(EFFECT_SCHEMAS.items())]
    return [("", "— no effect —"), *labelled]
