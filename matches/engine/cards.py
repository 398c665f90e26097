"""Card specs: the immutable facts of one card design, read from the project's catalogue.

A card is identified by its ``key`` ``"Set/Name"``. Examples: "Castle/Prince", "Starter/Newcomer",
"Beach Club/Newcomer", "Robot/Cyborg". ``resolve_card`` also accepts a bare name when it is unique
in the catalogue.

**Decision (ambiguous bare names):** several designs may share a bare name ("Newcomer", "Talent",
"Dog", "Champion"). It resolves to the base box Starter card when one exists. Otherwise it is an
error naming the candidates. Use "Set/Name" for any other copy.

**Decision (icons):** a card carries the icon of its own set. Rainbow cards carry every set icon.
(``icons`` lists all basic and additional sets; the engine keeps only the sets in play, rules.md
§5.) Starter cards are City cards (rules.md §1): "the City set, including the starter cards, is
always in play". So the Starter and Beach Cup Starter cards carry the City icon (``ICON_OF_SET``).
The Robot's cards form their own set and carry the Robot icon.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, NotRequired, TypedDict, cast

from matches.engine.params import EffectParams

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "cards" / "data" / "catalogue.json"

RAINBOW = "Rainbow"
CITY = "City"
# The icon a set's cards carry when it is not the set's own name: starter cards are City cards.
ICON_OF_SET: dict[str, str] = {"Starter": CITY, "Beach Cup Starter": CITY}


def icon_of_set(set_name: str) -> str:
    """The set icon the cards of ``set_name`` carry.

    Rainbow cards carry every icon besides."""
    return ICON_OF_SET.get(set_name, set_name)


class UnknownCard(KeyError):
    """An unknown or ambiguous card name or key."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card design.

    ``power`` is 0 when ``power_is_round`` (the Cyborg: power = round)."""

    key: str
    name: str
    set: str
    box: str
    level: str
    power: int
    power_is_round: bool = False
    keyword: str | None = None
    timing: str = "plain"
    effect_code: str | None = None
    effect_params: EffectParams = field(default_factory=EffectParams, compare=False, hash=False)
    icons: frozenset[str] = frozenset()


class CardRef(NamedTuple):
    """A physical card in a deck or pile: an opaque ``uid`` and its design ``key``."""

    uid: int | str
    key: str


class CatalogueEntry(TypedDict):
    """A card design as the catalogue (and a frozen snapshot) lists it.

    It holds the fields a spec reads. ``power`` is "round" for the Cyborg."""

    set: str
    name: str
    box: str
    level: str
    power: int | str
    keyword: NotRequired[str | None]
    timing: NotRequired[str | None]
    effect_code: NotRequired[str | None]
    effect_params: NotRequired[Mapping[str, object] | None]


class CatalogueSet(TypedDict):
    name: str
    kind: NotRequired[str]  # basic, additional, …


class Catalogue(TypedDict):
    """A parsed catalogue: its sets and its cards (it holds more)."""

    sets: list[CatalogueSet]
    cards: list[CatalogueEntry]


def spec_from_entry(entry: CatalogueEntry, all_sets: frozenset[str]) -> CardSpec:
    """Build a ``CardSpec`` from one catalogue entry."""
    set_name = str(entry["set"])
    power_is_round = entry["power"] == "round"
    icons = all_sets if set_name == RAINBOW else frozenset({icon_of_set(set_name)})
    return CardSpec(
        key=f"{set_name}/{entry['name']}",
        name=str(entry["name"]),
        set=set_name,
        box=str(entry["box"]),
        level=str(entry["level"]),
        power=0 if power_is_round else int(entry["power"]),
        power_is_round=power_is_round,
        keyword=entry.get("keyword"),
        timing=str(entry.get("timing") or "plain"),
        effect_code=entry.get("effect_code"),
        # The catalogue checks every entry's params with ``codes.validate_effect``.
        effect_params=cast(EffectParams, dict(entry.get("effect_params") or {})),
        icons=icons,
    )


def specs_from_catalogue(data: Catalogue) -> dict[str, CardSpec]:
    """A parsed catalogue's card specs, keyed by ``key``."""
    all_sets = frozenset(
        str(s["name"]) for s in data["sets"] if s.get("kind") in ("basic", "additional")
    )
    specs: dict[str, CardSpec] = {}
    for entry in data["cards"]:
        spec = spec_from_entry(entry, all_sets)
        specs[spec.key] = spec
    return specs


@lru_cache(maxsize=1)
def load_catalogue() -> dict[str, CardSpec]:
    """The project's catalogue (``cards/data/catalogue.json``) as specs by key (cached)."""
    with CATALOGUE_PATH.open(encoding="utf-8") as fh:
        return specs_from_catalogue(json.load(fh))


def _by_name(specs: Mapping[str, CardSpec]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for spec in specs.values():
        names.setdefault(spec.name.lower(), []).append(spec.key)
    return names


@lru_cache(maxsize=4)
def _catalogue_names() -> dict[str, list[str]]:
    return _by_name(load_catalogue())


def resolve_card(name: str, specs: Mapping[str, CardSpec] | None = None) -> CardSpec:
    """The spec for ``"Set/Name"`` or a bare name.

    See the module docstring for ambiguity."""
    table = load_catalogue() if specs is None else specs
    if name in table:
        return table[name]
    names = _catalogue_names() if specs is None else _by_name(table)
    keys = names.get(name.strip().lower())
    if not keys:
        raise UnknownCard(name, f"Unknown card {name!r}.")
    if len(keys) == 1:
        return table[keys[0]]
    starter = [k for k in keys if k.startswith("Starter/")]
    if starter:
        return table[starter[0]]
    raise UnknownCard(name, f"Card name {name!r} is ambiguous: use one of {', '.join(keys)}.")
