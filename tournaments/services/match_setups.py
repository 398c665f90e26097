"""Turning a tournament's rows into each match's engine input (its *setup*).

A setup holds everything the engine needs besides the card specs (which come from the
tournament's frozen snapshot) and the seed: both decks, each match's share of the piles, trophies,
fans, who holds the flag first, the sets in play.
"""

from __future__ import annotations

from typing import Any

from matches.models import Match
from tournaments.models import Tournament, Trophy
from tournaments.selectors.cards import card_facts, sets_in_play


def copy_keys(tournament: Tournament) -> dict[int, str]:
    """Each physical card's key, from the tournament's cached card facts."""
    return {uid: facts.key for uid, facts in card_facts(tournament).items()}


def build_setups(tournament: Tournament, matches: list[Match]) -> None:
    """Set each (unsaved) match's engine input; the caller holds the tournament lock.

    Matches of a round run at the same time but share the level piles. **Decision:** each match
    gets its own share of every pile, dealt like cards (match j takes every n-th card from
    position j), so effects that take pile cards can never hand one card to two matches.
    """
    keys = copy_keys(tournament)
    piles = {pile.level: list(pile.cards) for pile in tournament.piles.all()}
    trophies = kept_trophies_by_seat(tournament)
    count = len(matches)
    for index, match in enumerate(matches):
        share = {level: cards[index::count] for level, cards in piles.items()}
        match.setup = _setup_data(tournament, match, share, keys, trophies)


def _setup_data(
    tournament: Tournament,
    match: Match,
    share: dict[str, list[int]],
    keys: dict[int, str],
    trophies: dict[int, list[tuple[int, int]]],
) -> dict[str, Any]:
    sides = {"A": match.seat_a, "B": match.seat_b}
    robot = next((side for side, seat in sides.items() if seat.is_robot), None)
    won = {side: trophies.get(seat.pk, []) for side, seat in sides.items()}
    return {
        "round": min(tournament.round, 7),
        "final": tournament.is_final,
        "first": flag_holder(tournament.round, won["A"], won["B"]),
        "park": match.kind,
        "decks": {side: [[uid, keys[uid]] for uid in seat.deck] for side, seat in sides.items()},
        "piles": {level: [[uid, keys[uid]] for uid in cards] for level, cards in share.items()},
        "trophies": {side: len(won[side]) for side in sides},
        "fans": {side: seat.tokens for side, seat in sides.items()},
        "lost_previous": {side: seat.lost_previous for side, seat in sides.items()},
        "sets_in_play": sets_in_play(tournament),
        "robot": robot,
    }


def kept_trophies_by_seat(tournament: Tournament) -> dict[int, list[tuple[int, int]]]:
    """The (round, fans) of every trophy each seat won and keeps, by seat id, in one query."""
    won: dict[int, list[tuple[int, int]]] = {}
    rows = Trophy.objects.filter(tournament=tournament, winner__isnull=False, to_box=False)
    for seat_id, round_number, fans in rows.values_list("winner_id", "round", "fans"):
        won.setdefault(seat_id, []).append((round_number, fans))
    return won


def flag_holder(
    round_number: int, won_a: list[tuple[int, int]], won_b: list[tuple[int, int]]
) -> str | None:
    """Who holds the flag first: the holder of the highest-round trophy; else a toss (``None``).

    **Decision:** two seats whose best trophies are of the same round toss for the flag too.
    """
    if round_number == 1:
        return None
    best_a = max((won for won, _ in won_a), default=0)
    best_b = max((won for won, _ in won_b), default=0)
    if best_a == best_b:
        return None
    return "A" if best_a > best_b else "B"
