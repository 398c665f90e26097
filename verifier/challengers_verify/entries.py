"""A replay's card entries and match setups, checked field by field into engine types."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from challengers_verify.documents import as_dict, as_int, as_list, as_str
from matches.engine.cards import CatalogueEntry
from matches.engine.stored import StoredSetup

T = TypeVar("T")


def _optional_str(value: object, what: str) -> str | None:
    return None if value is None else as_str(value, what)


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what}: true or false expected, not {type(value).__name__}")
    return value


def catalogue_entry(entry: dict[str, object], what: str) -> CatalogueEntry:
    """A frozen card entry as the engine reads it."""
    power = entry["power"]
    if isinstance(power, bool) or not isinstance(power, int | str):
        raise ValueError(f"{what}: a power expected, not {type(power).__name__}")
    made = CatalogueEntry(
        set=as_str(entry["set"], what),
        name=as_str(entry["name"], what),
        box=as_str(entry["box"], what),
        level=as_str(entry["level"], what),
        power=power,
        keyword=_optional_str(entry.get("keyword"), what),
        timing=_optional_str(entry.get("timing"), what),
        effect_code=_optional_str(entry.get("effect_code"), what),
    )
    params = entry.get("effect_params")
    made["effect_params"] = None if params is None else as_dict(params, what)
    return made


def card_ref(ref: object, what: str) -> tuple[int, str]:
    """A card as a setup or a pile lists it: ``[uid, key]``."""
    match ref:
        case [int() as uid, str() as key]:
            return uid, key
    raise ValueError(f"{what}: [uid, key] expected, not {ref!r}")


def _pairs(value: object, what: str) -> list[tuple[int, str]]:
    return [card_ref(ref, what) for ref in as_list(value, what)]


def _each(value: object, what: str, read: Callable[[object, str], T]) -> dict[str, T]:
    return {name: read(item, what) for name, item in as_dict(value, what).items()}


def stored_setup(data: dict[str, object], what: str) -> StoredSetup:
    """A published match's ``setup`` as the engine reads it."""
    return StoredSetup(
        decks=_each(data["decks"], what, _pairs),
        round=as_int(data["round"], what),
        first=_optional_str(data["first"], what),
        park=as_str(data["park"], what),
        piles=_each(data["piles"], what, _pairs),
        trophies=_each(data["trophies"], what, as_int),
        fans=_each(data["fans"], what, as_int),
        lost_previous=_each(data["lost_previous"], what, _bool),
        sets_in_play=[as_str(name, what) for name in as_list(data["sets_in_play"], what)],
        robot=_optional_str(data["robot"], what),
        final=_bool(data["final"], what),
    )
