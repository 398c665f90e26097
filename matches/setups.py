"""Turning a tournament's rows into engine inputs: card specs from the curated catalogue, setups.

The engine plays the cards as the database holds them (admin edits included), so a curated
correction reaches every later match without touching the engine.
"""

from __future__ import annotations

from typing import Any

from cards.models import Card, SetKind
from matches.engine.cards import CardSpec, spec_from_entry
from matches.engine.model import MatchSetup
from matches.models import Match
from tournaments.models import CardCopy, Seat, Tournament
from tournaments.services.rounds import first_holder, kept_trophies


def catalogue_specs() -> dict[str, CardSpec]:
    """Every card design of the database as an engine spec."""
    all_sets = frozenset(
        Card.objects.filter(card_set__kind__in=[SetKind.BASIC, SetKind.ADDITIONAL])
        .values_list("card_set__name", flat=True)
        .distinct()
    )
    specs = {}
    for card in Card.objects.select_related("card_set"):
        entry = {
            "set": card.card_set.name,
            "box": card.card_set.box,
            "name": card.name,
            "level": card.level,
            "power": "round" if card.power_is_round else card.power,
            "keyword": card.keyword or None,
            "timing": card.timing,
            "effect_code": card.effect_code,
            "effect_params": card.effect_params,
        }
        spec = spec_from_entry(entry, all_sets)
        specs[spec.key] = spec
    return specs


def copy_keys(tournament: Tournament) -> dict[int, str]:
    rows = CardCopy.objects.filter(tournament=tournament).values_list(
        "uid", "card__card_set__name", "card__name"
    )
    return {uid: f"{set_name}/{name}" for uid, set_name, name in rows}


def build_setups(tournament: Tournament, matches: list[Match]) -> None:
    """Store each match's engine input (the caller holds the tournament lock).

    Matches of a round run at the same time but share the level piles. **Decision:** each match
    gets its own share of every pile, dealt like cards (match j takes every n-th card from
    position j), so effects that take pile cards can never hand one card to two matches.
    """
    keys = copy_keys(tournament)
    piles = {pile.level: list(pile.cards) for pile in tournament.piles.all()}
    count = len(matches)
    for index, match in enumerate(matches):
        share = {level: cards[index::count] for level, cards in piles.items()}
        match.setup = _setup_data(tournament, match, share, keys)
        match.save(update_fields=["setup"])


def _setup_data(
    tournament: Tournament, match: Match, share: dict[str, list[int]], keys: dict[int, str]
) -> dict[str, Any]:
    sides = {"A": match.seat_a, "B": match.seat_b}
    robot = next((side for side, seat in sides.items() if seat.is_robot), None)
    return {
        "round": min(tournament.round, 7),
        "final": tournament.is_final,
        "first": first_holder(tournament, match.seat_a, match.seat_b),
        "park": match.kind,
        "decks": {side: [[uid, keys[uid]] for uid in seat.deck] for side, seat in sides.items()},
        "piles": {level: [[uid, keys[uid]] for uid in cards] for level, cards in share.items()},
        "trophies": {side: _trophy_count(seat) for side, seat in sides.items()},
        "fans": {side: seat.tokens for side, seat in sides.items()},
        "lost_previous": {side: seat.lost_previous for side, seat in sides.items()},
        "sets_in_play": [tournament.basic_set, *tournament.additional_sets],
        "robot": robot,
    }


def _trophy_count(seat: Seat) -> int:
    return len(kept_trophies(seat))


def setup_from_data(data: dict[str, Any], specs: dict[str, CardSpec]) -> MatchSetup:
    """The engine's ``MatchSetup`` for a stored setup."""
    return MatchSetup(
        decks={
            side: tuple((uid, key) for uid, key in refs) for side, refs in data["decks"].items()
        },
        round=data["round"],
        first=data["first"],
        park=data["park"],
        shuffle=True,
        piles={
            level: tuple((uid, key) for uid, key in refs) for level, refs in data["piles"].items()
        },
        trophies=data["trophies"],
        fans=data["fans"],
        lost_previous=data["lost_previous"],
        sets_in_play=tuple(data["sets_in_play"]),
        robot=data["robot"],
        final=data["final"],
        specs=specs,
    )
