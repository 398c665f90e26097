"""Turning a tournament's rows into each match's engine input, its *setup*.

See ``tournaments.rules.setups``. The card specs come from the tournament's frozen snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping

from matches.models import Match
from tournaments.models import Tournament, Trophy
from tournaments.rules.setups import Side, match_setup, pile_shares
from tournaments.selectors.cards import card_facts, sets_in_play


def copy_keys(tournament: Tournament) -> dict[int, str]:
    """Each physical card's key, from the tournament's cached card facts."""
    return {uid: facts.key for uid, facts in card_facts(tournament).items()}


def build_setups(
    tournament: Tournament,
    matches: list[Match],
    *,
    piles: Mapping[str, list[int]] | None = None,
    trophies: list[Trophy] | None = None,
) -> None:
    """Set each unsaved match's engine input. The caller holds the tournament lock.

    The caller may give each level's cards and the trophies won, as it read them. Else they are
    read. Matches of a round run at the same time but share the level piles. So each gets its own
    share of every pile (``rules.setups.pile_shares``).
    """
    keys = copy_keys(tournament)
    if piles is None:
        piles = {pile.level: list(pile.cards) for pile in tournament.piles.all()}
    kept = kept_trophies_by_seat(tournament) if trophies is None else _kept(trophies)
    sets = sets_in_play(tournament)
    for match, share in zip(matches, pile_shares(piles, len(matches)), strict=True):
        sides = {
            side: Side(
                deck=seat.deck,
                fans=seat.tokens,
                lost_previous=seat.lost_previous,
                won=kept.get(seat.pk, []),
                robot=seat.is_robot,
            )
            for side, seat in (("A", match.seat_a), ("B", match.seat_b))
        }
        match.setup = match_setup(
            round_number=tournament.round,
            final=tournament.is_final,
            park_kind=match.kind,
            sides=sides,
            share=share,
            keys=keys,
            sets_in_play=sets,
        )


def _kept(trophies: list[Trophy]) -> dict[int, list[tuple[int, int]]]:
    """``kept_trophies_by_seat`` of the trophies won, as read in round and park order."""
    won: dict[int, list[tuple[int, int]]] = {}
    for trophy in trophies:
        if not trophy.to_box and trophy.winner_id is not None:
            won.setdefault(trophy.winner_id, []).append((trophy.round, trophy.fans))
    return won


def kept_trophies_by_seat(tournament: Tournament) -> dict[int, list[tuple[int, int]]]:
    """Each seat's kept trophies as (round, fans), by seat id, in one query."""
    won: dict[int, list[tuple[int, int]]] = {}
    rows = Trophy.objects.filter(tournament=tournament, winner__isnull=False, to_box=False)
    for seat_id, round_number, fans in rows.values_list("winner_id", "round", "fans"):
        won.setdefault(seat_id, []).append((round_number, fans))
    return won
