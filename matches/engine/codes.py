"""The machine-readable effect codes a card may carry, and the catalogue's check.

``EFFECT_SCHEMAS`` maps every known effect code to one declarative table. It lists each parameter
the code's handler reads. Each has a type, a range and a required flag.

``validate_effect`` checks a card's params against that table. No key may be unknown, no required
key missing. Each value must have the right type and range. So no admin-entered value can break a
match. ``EFFECT_PARAMS`` (the parameter names per code) is derived from it.

The engine's registry of handlers (``matches.engine.effects.HANDLERS``) is built for exactly these
codes. A test and an import-time check keep them equal. So the catalogue (Django admin, the loader)
and the engine never disagree about what a code means.

``PICKED_CODES`` are the When picked codes the Deck Phase (tournament rules) handles. The match
engine ignores them.

Shared sub-languages (validated here too, each by its own table):

* a **filter** selects cards: ``{"name": "Newcomer", "set": "City", "level": "B", "power": 3,
  "min_power": 4, "max_power": 3}``. All are optional; all given must hold. ``set`` means "carries
  that set's icon". So a Rainbow card matches every set in play. Powers are base powers.
* a **condition** (``when``) gates an effect: ``{"trophies_at_most": 3, "deck_at_most": 1,
  "lost_previous": true, "bench_has": filter, "bench_lacks": filter, "opponent_exhaust_at_least": 1,
  "cards_beneath": true}``. All given must hold.
* ``steps`` runs several effects in order: ``{"steps": [{"code": ..., "params": {...}}, ...]}``. A
  step's code is one of ``STEP_CODES``, the codes the engine runs as a trigger.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol


class EffectSpecError(ValueError):
    """The engine does not know a card's machine-readable effect.

    ``code`` says what is wrong: ``unknown_effect_code``, ``params_without_code``,
    ``unknown_effect_param``, ``missing_effect_param``, ``bad_effect_param`` (a wrong type) or
    ``effect_param_out_of_range``. ``param`` names the parameter, or is None. Inside a filter, a
    condition or a step it is a dotted path.
    """

    def __init__(self, code: str, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.param = param


class Where(NamedTuple):
    """The effect code and the parameter path being checked, to word an error."""

    code: str
    path: str

    def at(self, name: str) -> Where:
        return Where(self.code, f"{self.path}.{name}" if self.path else name)

    def error(self, kind: str, problem: str) -> EffectSpecError:
        message = f"Effect {self.code!r}: parameter {self.path!r} {problem}."
        return EffectSpecError(kind, message, self.path)


class Param(Protocol):
    """One parameter's type and range."""

    @property
    def required(self) -> bool: ...

    def check(self, where: Where, value: object) -> None:
        """Raise ``EffectSpecError`` unless ``value`` is a valid value."""


@dataclass(frozen=True, slots=True)
class Int:
    """A whole number from ``low`` to ``high``.

    A JSON true/false is not a number."""

    low: int
    high: int
    required: bool = False

    def check(self, where: Where, value: object) -> None:
        if type(value) is not int:
            raise where.error("bad_effect_param", f"must be a whole number, not {_shown(value)}")
        if not self.low <= value <= self.high:
            problem = f"must be from {self.low} to {self.high}, not {value}"
            raise where.error("effect_param_out_of_range", problem)


@dataclass(frozen=True, slots=True)
class Flag:
    """true or false."""

    required: bool = False

    def check(self, where: Where, value: object) -> None:
        if type(value) is not bool:
            raise where.error("bad_effect_param", f"must be true or false, not {_shown(value)}")


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of a few words.

    ``label`` words the error when there are too many to list."""

    choices: tuple[str, ...]
    required: bool = False
    label: str = ""

    def check(self, where: Where, value: object) -> None:
        if not isinstance(value, str):
            raise where.error("bad_effect_param", f"must be a text, not {_shown(value)}")
        if value not in self.choices:
            names = self.label or "one of " + ", ".join(repr(c) for c in self.choices)
            raise where.error("effect_param_out_of_range", f"must be {names}, not {_shown(value)}")


@dataclass(frozen=True, slots=True)
class Text:
    """A non-empty text of at most ``longest`` characters (a card or set name)."""

    required: bool = False
    longest: int = 60

    def check(self, where: Where, value: object) -> None:
        if not isinstance(value, str):
            raise where.error("bad_effect_param", f"must be a text, not {_shown(value)}")
        if not value.strip() or len(value) > self.longest:
            problem = f"must be 1 to {self.longest} characters, not {_shown(value)}"
            raise where.error("effect_param_out_of_range", problem)


@dataclass(frozen=True, slots=True)
class Obj:
    """A JSON object, its keys checked by ``table`` (a filter, a condition) or elsewhere."""

    what: str
    table: Mapping[str, Param] | None = None
    required: bool = False

    def check(self, where: Where, value: object) -> None:
        if not isinstance(value, Mapping):
            raise where.error("bad_effect_param", f"must be {self.what}, not {_shown(value)}")
        if self.table is not None:
            check_table(where, self.table, value)


@dataclass(frozen=True, slots=True)
class Steps:
    """A list of 1 to ``longest`` steps ``{"code": …, "params": {…}}``.

    Their codes are in ``STEP_CODES``."""

    longest: int = 5
    required: bool = True

    def check(self, where: Where, value: object) -> None:
        if not isinstance(value, list):
            raise where.error("bad_effect_param", f"must be a list of steps, not {_shown(value)}")
        if not 1 <= len(value) <= self.longest:
            problem = f"must hold 1 to {self.longest} steps, not {len(value)}"
            raise where.error("effect_param_out_of_range", problem)
        for index, step in enumerate(value):
            _check_step(where.at(str(index)), step)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------- the tables

LEVELS = ("S", "A", "B", "C", "R", "SOLO")
PILES = ("A", "B", "C")
SIDE = OneOf(("own", "opponent"))
END = OneOf(("top", "bottom"))
POWER = Int(0, 11)
PER = Int(-10, 10, required=True)
BONUS = Int(-10, 10, required=True)
FANS = Int(1, 10, required=True)
CARDS = Int(0, 50)

FILTER_TABLE: dict[str, Param] = {
    "name": Text(),
    "set": Text(),
    "level": OneOf(LEVELS),
    "power": POWER,
    "min_power": POWER,
    "max_power": POWER,
}
FILTER = Obj("a filter object", FILTER_TABLE)
CONDITION_TABLE: dict[str, Param] = {
    "trophies_at_most": Int(0, 7),
    "deck_at_most": CARDS,
    "lost_previous": Flag(),
    "bench_has": FILTER,
    "bench_lacks": FILTER,
    "opponent_exhaust_at_least": CARDS,
    "cards_beneath": Flag(),
}
WHEN = Obj("a condition object", CONDITION_TABLE)
FILTER_KEYS = frozenset(FILTER_TABLE)
CONDITION_KEYS = frozenset(CONDITION_TABLE)

# What ``attack_bonus``/``flag_bonus`` count and when a From the bench bonus applies (the keys of
# ``effects._COUNTS`` and ``effects.DURING``).
COUNTS = ("one", "opponent_trophies", "own_exhaust", "own_fan_tokens", "empty_seats")
DURINGS = ("always", "attacking", "holding")

_PER_COUNT: dict[str, Param] = {"per": PER, "count": OneOf(COUNTS)}
_BENCH_MOVE: dict[str, Param] = {
    "min": Int(0, 6),
    "max": Int(0, 6),
    "filter": FILTER,
    "side": SIDE,
    "chooser": SIDE,
    "lowest": Flag(),
    "bonus": Int(-10, 10),
}
_PICKED_REMOVE: dict[str, Param] = {"count": Int(1, 6), "filter": FILTER, "permanent": Flag()}

EFFECT_SCHEMAS: dict[str, dict[str, Param]] = {
    # power snapshots when revealed (they stay with the card)
    "power_if": {"bonus": BONUS, "when": WHEN},
    "power_per_bench_card": {"per": PER, "filter": FILTER, "side": SIDE},
    "power_per_bench_icon": {"per": PER, "side": SIDE},
    "power_per_distinct_power": {"per": PER},
    "power_per_empty_seat": {"per": PER},
    "power_per_fan_tokens": {"per": PER, "group": Int(1, 20)},
    "power_per_card_in_seat": {"per": PER},
    "next_reveal_bonus": {"bonus": BONUS, "during_attack": Flag()},
    # lasting modifiers
    "attack_bonus": _PER_COUNT,
    "flag_bonus": _PER_COUNT,
    "bench_aura": {"bonus": BONUS, "filter": FILTER, "during": OneOf(DURINGS)},
    "fans_per_attacker_reveal": {"n": FANS},
    # fans and match end
    "gain_fans": {"n": FANS, "side": SIDE, "when": WHEN},
    "lose_if": {"when": WHEN, "reason": OneOf(("card_effect", "zeppelin"))},
    # moving cards
    "bench_to_exhaust": _BENCH_MOVE,
    "bench_to_deck_top": _BENCH_MOVE,
    "bench_remove": _BENCH_MOVE,
    "seat_to_exhaust": {},
    "deck_to_exhaust": {"side": SIDE, "end": END, "when": WHEN},
    "deck_to_bench": {"side": SIDE},
    "exhaust_to_deck": {"to": END},
    "pile_to_deck": {"pile": OneOf(PILES, required=True), "n": Int(1, 5), "to": END, "side": SIDE},
    "pile_to_exhaust": {"pile": OneOf(PILES, required=True), "n": Int(1, 5)},
    "arrange_top": {"n": Int(1, 10, required=True), "bottom": Int(0, 10), "exhaust": Int(0, 10)},
    "peek_move": {"end": END},
    "search_deck": {"to": END},
    "self_to": {"to": OneOf(("exhaust", "removed"), required=True)},
    "steps": {"steps": Steps()},
    # static rule changes (Special keyword, Streamer, Cyborg)
    "bench_redirect": {"to": OneOf(("exhaust",))},
    "exhaust_redirect": {"to": OneOf(("deck_top",))},
    "bench_seat_as": {"name": Text(required=True)},
    "bench_seats": {"n": Int(1, 6)},
    "double_bonuses": {"factor": Int(1, 10)},
    "power_equals_round": {},
    # When picked (Deck Phase; handled by tournaments.rules, not the match engine)
    "picked_gain_fans": {"n": FANS},
    "picked_remove_for_extra_pick": _PICKED_REMOVE,
    "picked_must_remove": _PICKED_REMOVE,
    "picked_draw_keep": {
        "pile": OneOf(PILES, required=True),
        "draw": Int(1, 5, required=True),
        "keep": Int(1, 1),
    },
}

EFFECT_PARAMS: dict[str, frozenset[str]] = {
    code: frozenset(table) for code, table in EFFECT_SCHEMAS.items()
}

PICKED_CODES = frozenset(code for code in EFFECT_PARAMS if code.startswith("picked_"))

# The codes a ``steps`` effect may run: the engine's trigger codes (a test keeps them equal).
STEP_CODES = frozenset(
    {
        *("power_if", "power_per_bench_card", "power_per_bench_icon", "power_per_distinct_power"),
        *("power_per_empty_seat", "power_per_fan_tokens", "power_per_card_in_seat"),
        *("next_reveal_bonus", "gain_fans", "lose_if", "bench_to_exhaust", "bench_to_deck_top"),
        *("bench_remove", "seat_to_exhaust", "deck_to_exhaust", "deck_to_bench"),
        *("exhaust_to_deck", "pile_to_deck", "pile_to_exhaust", "arrange_top", "peek_move"),
        *("search_deck", "self_to"),
    }
)
_STEP_TABLE: dict[str, Param] = {
    "code": OneOf(tuple(sorted(STEP_CODES)), True, "an effect code a step may run"),
    "params": Obj("an object"),
}


# --------------------------------------------------------------------------- checking


def validate_effect(code: str | None, params: object) -> None:
    """Raise ``EffectSpecError`` unless ``code`` and ``params`` are valid.

    See ``EFFECT_SCHEMAS``."""
    if code is None:
        if params:
            raise EffectSpecError("params_without_code", "Effect parameters need an effect code.")
        return
    table = EFFECT_SCHEMAS.get(code)
    if table is None:
        raise EffectSpecError("unknown_effect_code", f"Unknown effect code {code!r}.")
    if not isinstance(params, Mapping):
        message = f"Effect {code!r}: the parameters must be an object, not {_shown(params)}."
        raise EffectSpecError("bad_effect_param", message)
    check_table(Where(code, ""), table, params)


def check_table(where: Where, table: Mapping[str, Param], value: Mapping[str, object]) -> None:
    """No key outside ``table``, every required key given, every value valid."""
    unknown = sorted(str(key) for key in value if key not in table)
    if unknown:
        raise _unknown(where, unknown)
    for name, param in table.items():
        if name in value:
            param.check(where.at(name), value[name])
        elif param.required:
            raise where.at(name).error("missing_effect_param", "is required")


def _unknown(where: Where, names: list[str]) -> EffectSpecError:
    listed = ", ".join(names)
    if not where.path:
        message = f"Effect {where.code!r} takes no parameter {listed}."
        return EffectSpecError("unknown_effect_param", message, names[0])
    message = f"Effect {where.code!r}: parameter {where.path!r} takes no key {listed}."
    return EffectSpecError("unknown_effect_param", message, where.at(names[0]).path)


def _check_step(where: Where, step: object) -> None:
    if not isinstance(step, Mapping):
        raise where.error("bad_effect_param", f"must be a step object, not {_shown(step)}")
    check_table(where, _STEP_TABLE, step)
    check_table(where.at("params"), EFFECT_SCHEMAS[step["code"]], step.get("params") or {})
