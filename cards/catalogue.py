"""Loading ``cards/data/catalogue.json`` into the database.

``catalogue_load`` is idempotent. Rows equal to the file are left alone, so a second run changes
nothing. A row an admin edited (``curated``) is not overwritten but reported as skipped. ``force``
makes the database equal the file again, and clears the mark. Rows in the database but not in
the file are reported, never deleted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict, TypeVar

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _

from cards.cache import catalogue_changed
from cards.history import bulk_updated_with_history, created_with_history
from cards.models import Card, CardSet
from infra.errors import ApplicationError

LOADED = "load_catalogue"  # the reason its changes carry in the catalogue's history
CATALOGUE_PATH = Path(__file__).resolve().parent / "data" / "catalogue.json"

SET_FIELDS: tuple[str, ...] = (
    "box",
    "kind",
    "expected_copies",
    "starter_decks",
    "note",
    "position",
)
CARD_FIELDS: tuple[str, ...] = (
    "level",
    "power",
    "power_is_round",
    "copies",
    "copies_per_starter_deck",
    "keyword",
    "timing",
    "effect",
    "confidence",
    "note",
    "effect_code",
    "effect_params",
    "translations",
)

Row = TypeVar("Row", CardSet, Card)


class SetEntry(TypedDict):
    """A card set as the catalogue file holds it."""

    name: str
    box: str
    kind: str
    cards: int
    note: NotRequired[str]
    position: NotRequired[int]  # an exported set names its own


class CardEntry(TypedDict):
    """A card as the catalogue file holds it; ``power`` is a number or ``"round"``."""

    box: str
    set: str
    name: str
    level: str
    power: int | str
    copies: int | None
    copies_per_starter_deck: NotRequired[int]
    keyword: str | None
    timing: str
    effect: str | None
    confidence: str
    note: NotRequired[str]
    effect_code: str | None
    effect_params: dict[str, object]
    i18n: dict[str, dict[str, str]]


class StarterDecks(TypedDict, total=False):
    decks_per_box: int


class Catalogue(TypedDict):
    """The parts of the catalogue or set file that the loader reads."""

    sets: list[SetEntry]
    cards: list[CardEntry]
    starter_decks: NotRequired[StarterDecks]


@dataclass(frozen=True)
class Change:
    """One field a load changes on a row: its database and file values."""

    name: str
    old: object
    new: object

    def __str__(self) -> str:
        return f"{self.name}: {_shown(self.old)} -> {_shown(self.new)}"


def _shown(value: object) -> str:
    if isinstance(value, models.Model):
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


class CatalogueError(ApplicationError):
    """The catalogue file holds something the models refuse."""


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: list[str] = field(default_factory=list)
    not_in_file: list[str] = field(default_factory=list)
    # What a load changes, for its report and its dry run: each created row's key, and each
    # updated row's key with its changed fields' old and new values.
    new: list[str] = field(default_factory=list)
    changes: dict[str, list[Change]] = field(default_factory=dict)

    def summary(self) -> str:
        return _(
            "%(created)d created, %(updated)d updated, %(unchanged)d unchanged, "
            "%(skipped)d skipped (curated), %(absent)d not in the file"
        ) % {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "skipped": len(self.skipped),
            "absent": len(self.not_in_file),
        }


@dataclass
class LoadReport:
    sets: Counts
    cards: Counts


def catalogue_read(*, path: Path = CATALOGUE_PATH) -> Catalogue:
    with path.open(encoding="utf-8") as handle:
        data: Catalogue = json.load(handle)  # the file's shape, checked row by row as it loads
    return data


def catalogue_load(
    *,
    path: Path = CATALOGUE_PATH,
    data: Catalogue | None = None,
    force: bool = False,
    dry_run: bool = False,
    only_its_sets: bool = False,
) -> LoadReport:
    """Bring the card sets and cards in line with the catalogue file at ``path``.

    ``data`` may give the file parsed instead. A set file of ``cards.setfiles`` has the same
    format. ``dry_run`` reports what would change and changes nothing.

    ``only_its_sets`` is for a curator's set file. Rows of sets the file does not hold are not
    reported missing. Rows it writes are curated, like an admin edit. So the shipped
    catalogue's next load leaves them alone. It overwrites curated rows of its own sets: the
    curator's word is newer."""
    with transaction.atomic():
        report = _load(catalogue_read(path=path) if data is None else data, force, only_its_sets)
        if dry_run:
            transaction.set_rollback(True)
    if not dry_run:
        catalogue_changed()  # bulk writes send no save signals: the card API's cache is told here
    return report


def _load(data: Catalogue, force: bool, only_its_sets: bool) -> LoadReport:
    set_rows = _set_rows(data)
    existing_sets = _by_key(CardSet.objects.all())
    existing_cards = _by_key(Card.objects.select_related("card_set"))
    if only_its_sets:
        existing_sets = {key: row for key, row in existing_sets.items() if key in set_rows}
        existing_cards = {
            key: row for key, row in existing_cards.items() if row.card_set.name in set_rows
        }
    set_counts = _sync(CardSet, existing_sets, set_rows, force=force, curate=only_its_sets)
    sets = {card_set.name: card_set for card_set in CardSet.objects.all()}
    card_rows = _card_rows(data, sets)
    card_counts = _sync(Card, existing_cards, card_rows, force=force, curate=only_its_sets)
    return LoadReport(sets=set_counts, cards=card_counts)


def _set_rows(data: Catalogue) -> dict[str, dict[str, object]]:
    decks = (data.get("starter_decks") or {}).get("decks_per_box")
    return {
        row["name"]: {
            "name": row["name"],
            "box": row["box"],
            "kind": row["kind"],
            "expected_copies": row["cards"],
            "starter_decks": decks if row["kind"] == "starter" else None,
            "note": row.get("note") or "",
            "position": row.get("position", position),  # an exported set names its own
        }
        for position, row in enumerate(data["sets"])
    }


def _card_rows(data: Catalogue, sets: Mapping[str, CardSet]) -> dict[str, dict[str, object]]:
    rows: dict[str, dict[str, object]] = {}
    for row in data["cards"]:
        card_set = sets.get(row["set"])
        if card_set is None or card_set.box != row["box"]:
            message = _('Card "%(name)s" names an unknown set "%(set)s".')
            raise CatalogueError("catalogue_invalid", message % row)
        rows[f"{row['set']} / {row['name']}"] = _card_fields(row, card_set)
    return rows


def _card_fields(row: CardEntry, card_set: CardSet) -> dict[str, object]:
    round_power = row["power"] == "round"
    return {
        "card_set": card_set,
        "name": row["name"],
        "level": row["level"],
        "power": None if round_power else row["power"],
        "power_is_round": round_power,
        "copies": row.get("copies"),
        "copies_per_starter_deck": row.get("copies_per_starter_deck"),
        "keyword": row.get("keyword") or "",
        "timing": row["timing"],
        "effect": row.get("effect") or "",
        "confidence": row["confidence"],
        "note": row.get("note") or "",
        "effect_code": row.get("effect_code"),
        "effect_params": row.get("effect_params") or {},
        "translations": row.get("i18n") or {},
    }


def _key(row: CardSet | Card) -> str:
    return f"{row.card_set.name} / {row.name}" if isinstance(row, Card) else row.name


def _by_key(rows: Iterable[Row]) -> dict[str, Row]:
    return {_key(row): row for row in rows}


def _sync(
    model: type[Row],
    existing: dict[str, Row],
    wanted: Mapping[str, dict[str, object]],
    *,
    force: bool,
    curate: bool,
) -> Counts:
    """Write ``wanted`` over ``existing``.

    With ``curate`` (a curator's set file), mark what is written curated, and overwrite curated
    rows. Otherwise leave curated rows alone, unless ``force``."""
    names: tuple[str, ...] = SET_FIELDS if model is CardSet else CARD_FIELDS
    counts = Counts(not_in_file=sorted(set(existing) - set(wanted)))
    to_create: list[Row] = []
    to_update: list[Row] = []
    for key, values in wanted.items():
        row = existing.get(key)
        if row is None:
            to_create.append(_validated(model(**values, curated=curate), key))
            counts.new.append(key)
            continue
        changes = [
            Change(name, getattr(row, name), values[name])
            for name in names
            if getattr(row, name) != values[name]
        ]
        if not changes:
            counts.unchanged += 1
        elif row.curated and not (force or curate):
            counts.skipped.append(key)
        else:
            to_update.append(_overwritten(row, values, names, key, curated=curate))
            counts.changes[key] = changes
    _write(model, to_create, to_update, [*names, "curated"])
    counts.created, counts.updated = len(to_create), len(to_update)
    return counts


def _overwritten(
    row: Row, values: Mapping[str, object], names: Iterable[str], key: str, *, curated: bool
) -> Row:
    for name in names:
        setattr(row, name, values[name])
    row.curated = curated
    return _validated(row, key)


def _validated(row: Row, key: str) -> Row:
    # Uniqueness and constraints are left to the database; the rules of ``clean`` are checked.
    try:
        row.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        message = f"{key}: {'; '.join(error.messages)}"
        raise CatalogueError("catalogue_invalid", message) from error
    return row


def _write(model: type[Row], created: list[Row], updated: list[Row], fields: list[str]) -> None:
    created_with_history(model, created, reason=LOADED)
    bulk_updated_with_history(model, updated, fields, reason=LOADED)
