"""Frozen card data: the snapshot a tournament takes at its start, and its engine specs.

A snapshot's rows never change. So its specs are built once per process. Every match of every
tournament playing it shares them. The engine caches its card table per spec dict. So each call must
return the same dict object.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from cards.models import Card, CardSnapshot, SetKind
from matches.engine.cards import CardSpec, spec_from_entry


def card_entry(card: Card) -> dict[str, object]:
    """One card design as the engine's catalogue entry, with the design's id.

    Renaming or moving it to another set keeps the id. A tournament finds its frozen card by it."""
    return {
        "id": card.pk,
        "set": card.card_set.name,
        "box": card.card_set.box,
        "name": card.name,
        "level": card.level,
        "power": "round" if card.power_is_round else card.power,
        "keyword": card.keyword or None,
        "timing": card.timing,
        "effect_code": card.effect_code,
        "effect_params": card.effect_params,
        "copies": card.copies,
        "starter_copies": card.copies_per_starter_deck,
    }


def snapshot_take() -> CardSnapshot:
    """The catalogue's snapshot as the database holds it now.

    An existing equal snapshot is reused. Retired cards and retired sets' cards are left out. They
    stay in the catalogue and in the snapshots that played them, but in no new one.
    """
    in_play = Card.objects.filter(retired=False, card_set__retired=False)
    entries = [card_entry(card) for card in in_play.select_related("card_set").order_by("pk")]
    all_sets = sorted(
        set(
            in_play.filter(card_set__kind__in=[SetKind.BASIC, SetKind.ADDITIONAL])
            .values_list("card_set__name", flat=True)
            .distinct()
        )
    )
    text = json.dumps([entries, all_sets], sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()
    snapshot, _ = CardSnapshot.objects.get_or_create(
        digest=digest, defaults={"entries": entries, "all_sets": all_sets}
    )
    return snapshot


@lru_cache(maxsize=16)
def snapshot_specs(snapshot_id: int) -> dict[str, CardSpec]:
    """Every card of the snapshot as an engine spec, by ``"Set/Name"`` (cached)."""
    entries, all_sets = (
        CardSnapshot.objects.filter(pk=snapshot_id).values_list("entries", "all_sets").get()
    )
    sets = frozenset(all_sets)
    specs = (spec_from_entry(entry, sets) for entry in entries)
    return {spec.key: spec for spec in specs}


@lru_cache(maxsize=16)
def snapshot_keys(snapshot_id: int) -> dict[int, str]:
    """Each card design's frozen ``"Set/Name"`` in the snapshot, by id (cached).

    Empty for an old snapshot: one taken before entries carried ids and not found since (see
    migration 0007)."""
    entries = CardSnapshot.objects.filter(pk=snapshot_id).values_list("entries", flat=True).get()
    return {entry["id"]: f"{entry['set']}/{entry['name']}" for entry in entries if "id" in entry}
