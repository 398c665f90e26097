"""What the tournaments hold of the card catalogue.

That is the facts of a tournament's physical cards, the sets it plays, and how many running
tournaments play a card. The cards admin reads the last through ``settings.CARD_USERS``. So
``cards`` never imports ``tournaments``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from cards.cache import catalogue_version
from cards.models import Card
from cards.snapshots import snapshot_keys, snapshot_specs
from tournaments.models import CardCopy, Status, Tournament
from tournaments.rules.options import CITY
from tournaments.rules.when_picked import CardFacts

RUNNING = (Status.DECK, Status.MATCH)
# Starter and Robot cards are in every tournament, whichever sets it plays.
ALWAYS_IN_PLAY = frozenset({"S", "R", "SOLO"})


def running_tournaments_holding(*, set_name: str, name: str) -> int:
    """How many running tournaments play ``set_name/name``, as frozen at their start."""
    key = f"{set_name}/{name}"
    rows = Tournament.objects.filter(status__in=RUNNING, snapshot__isnull=False).values_list(
        "snapshot_id", "basic_set", "additional_sets"
    )
    count = 0
    for snapshot_id, basic_set, additional_sets in rows:
        spec = snapshot_specs(snapshot_id).get(key)
        if spec is None:
            continue
        if spec.level in ALWAYS_IN_PLAY or set_name in {basic_set, *additional_sets}:
            count += 1
    return count


def card_key(card: Card) -> str:
    return f"{card.card_set.name}/{card.name}"


def card_facts(tournament: Tournament) -> dict[int, CardFacts]:
    """Every physical card of the tournament as the Deck Phase sees it.

    The facts come from the frozen snapshot. A tournament's cards and card data never change once it
    has started. So the facts are cached by tournament id and snapshot. Nothing else shares that
    key.
    """
    if tournament.status == "lobby" or tournament.snapshot_id is None:
        return {}
    return _facts_of_tournament(tournament.pk, tournament.snapshot_id)


@lru_cache(maxsize=64)
def _facts_of_tournament(tournament_id: int, snapshot_id: int) -> dict[int, CardFacts]:
    specs, frozen_keys = snapshot_specs(snapshot_id), snapshot_keys(snapshot_id)
    copies = CardCopy.objects.filter(tournament_id=tournament_id).values_list(
        "uid", "card_id", "card__card_set__name", "card__name"
    )
    facts = {}
    for uid, card_id, set_name, name in copies:
        # By the design's id: the card may have been renamed or moved since the start. Its
        # name as stored now only for a snapshot that knows no ids (none since migration 0007).
        spec = specs[frozen_keys.get(card_id) or f"{set_name}/{name}"]
        params = dict(spec.effect_params)
        facts[uid] = CardFacts(spec.key, spec.level, spec.power, spec.set, spec.effect_code, params)
    return facts


def current_keys(snapshot_id: int | None) -> Mapping[str, str]:
    """Frozen keys whose design was since renamed or moved, to the design's key now.

    Empty when none was. Cached per catalogue version: a rename shows at once.
    """
    if snapshot_id is None:
        return {}
    return _current_keys(snapshot_id, catalogue_version())


@lru_cache(maxsize=32)
def _current_keys(snapshot_id: int, version: int) -> dict[str, str]:
    frozen = snapshot_keys(snapshot_id)
    designs = Card.objects.filter(pk__in=frozen).values_list("pk", "card_set__name", "name")
    now = {pk: f"{set_name}/{name}" for pk, set_name, name in designs}
    return {key: now[pk] for pk, key in frozen.items() if now.get(pk, key) != key}


def sets_in_play(tournament: Tournament) -> list[str]:
    """The basic set, the five additional sets, and City.

    The starter cards are City cards, so City is in play in every game. A Rainbow card then counts
    as City too.
    """
    sets = [tournament.basic_set, *tournament.additional_sets]
    return sets if CITY in sets else [*sets, CITY]
