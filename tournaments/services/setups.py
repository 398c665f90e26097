"""Turning a tournament's rows into each match's engine input (its *setup*).

A setup holds everything the engine needs besides the card specs (which come from the
tournament's frozen snapshot) and the seed: both decks, each match's share of the piles, trophies,
fans, who holds the flag first, the sets in play.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from matches.models import Match
from tournaments.models import CardCopy, Seat, Tournament
from tournaments.rules.options import CITY


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
        "sets_in_play": sets_in_play(tournament),
        "robot": robot,
    }


def _trophy_count(seat: Seat) -> int:
    return len(kept_trophies(seat))


def kept_trophies(seat: Seat) -> list[tuple[int, int]]:
    """The (round, fans) of every trophy a seat won and keeps."""
    return list(seat.trophies.filter(to_box=False).values_list("round", "fans"))


def first_holder(tournament: Tournament, a: Seat, b: Seat) -> str | None:
    """Who holds the flag first: the holder of the highest-round trophy; else a toss (``None``).

    **Decision:** two seats whose best trophies are of the same round toss for the flag too.
    """
    if tournament.round == 1:
        return None
    best = {
        side: seat.trophies.filter(to_box=False).aggregate(best=Max("round"))["best"] or 0
        for side, seat in (("A", a), ("B", b))
    }
    if best["A"] == best["B"]:
        return None
    return "A" if best["A"] > best["B"] else "B"


def sets_in_play(tournament: Tournament) -> list[str]:
    """The basic set, the five additional sets, and City: the starter cards are City cards, so
    the City set is in play in every game (a Rainbow card then counts as a City card too)."""
    sets = [tournament.basic_set, *tournament.additional_sets]
    return sets if CITY in sets else [*sets, CITY]
