"""Forfeits in a league's record.

A member's forfeit of one match gives that match to its opponent. It counts as if the opponent had
won it.

The league reads two things of a tournament: who holds each park's trophy, and who won the Final. A
trophy's fans count, as in the tournament's own ranking. A forfeit moves the match's trophy to the
opponent. If that opponent is the Robot at 3-7 seats, the trophy goes to the box, as in play. A
forfeited Final moves its title to the opponent.

A game of 1-2 seats has no Final. Its winner is then decided from the corrected standings, by the
game's own rule. The rule is a lead of 11 fans, else the most fans.

Later rounds stay as they were played. Replaying them would need decks and draws that never
happened. The matches themselves (events, decks, replays) are never touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from leagues.models import Correction, CorrectionKind, LeagueTournament, Member
from matches.models import Match
from tournaments.models import Seat, Trophy
from tournaments.rules.standings import (
    Standing,
    lead_winner,
    scores,
    winners_after_last_round,
)

FINAL_ROUND = 8


@dataclass(frozen=True, slots=True)
class Board:
    """A tournament's end as the league reads it, forfeits applied."""

    won: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # seat id: (round, fans)
    winners: list[int] = field(default_factory=list)  # seat numbers
    finalists: list[int] = field(default_factory=list)


def board(link: LeagueTournament, members: Sequence[tuple[Seat, Member]]) -> Board:
    """The trophies kept and titles of ``link``'s tournament after its forfeits."""
    tournament = link.tournament
    trophies = list(Trophy.objects.filter(tournament=tournament))
    holder = {(t.round, t.park): (t.winner_id, t.to_box) for t in trophies}
    winners = list(tournament.winners)
    seat_of = {member.pk: seat for seat, member in members}
    forfeited = _latest(link)
    for correction in forfeited:
        match = correction.match
        loser = seat_of.get(correction.member_id or 0)
        if match is None or loser is None:
            continue
        other = match.seat_b if loser.pk == match.seat_a_id else match.seat_a
        if match.round == FINAL_ROUND:
            winners = [other.number]
        else:
            to_box = other.is_robot and tournament.seat_count > 1
            holder[(match.round, match.park)] = (other.pk, to_box)
    fans = {(t.round, t.park): t.fans for t in trophies}
    won: dict[int, list[tuple[int, int]]] = {}
    for key, (seat_id, to_box) in sorted(holder.items()):
        if seat_id is not None and not to_box:
            won.setdefault(seat_id, []).append((key[0], fans[key]))
    if forfeited and tournament.seat_count <= 2:
        winners = _small_game_winners(list(tournament.seats.all()), won, tournament.seat_count)
    return Board(won, winners, list(tournament.finalists))


def _small_game_winners(
    seats: list[Seat], won: dict[int, list[tuple[int, int]]], seat_count: int
) -> list[int]:
    """A 1-2 seat game's winners by its own rule, from the corrected standings."""
    standings = [
        Standing(seat=s.number, tokens=s.tokens, trophies=tuple(won.get(s.pk, [])))
        for s in seats
        if scores(is_robot=s.is_robot, seat_count=seat_count)
    ]
    if len(standings) != 2:
        return winners_after_last_round(standings)
    leader = lead_winner(standings)
    return [leader] if leader is not None else winners_after_last_round(standings)


def _latest(link: LeagueTournament) -> list[Correction]:
    """Each forfeited match's latest forfeit, oldest first. A later forfeit supersedes."""
    found = Correction.objects.filter(link=link, kind=CorrectionKind.FORFEIT).select_related(
        "match__seat_a", "match__seat_b"
    )
    latest = {c.match_id: c for c in found.order_by("id")}
    return sorted(latest.values(), key=lambda c: c.pk)


def match_winner(link: LeagueTournament, match: Match, seat_of: dict[int, Seat]) -> int | None:
    """The seat id that holds ``match`` in the league's record.

    That is its latest forfeit's opponent, else who won it. ``seat_of`` maps member ids to their
    seats.
    """
    last = (
        Correction.objects.filter(link=link, match=match, kind=CorrectionKind.FORFEIT)
        .order_by("-id")
        .first()
    )
    if last is None:
        return match.winner_id
    loser = seat_of[last.member_id or 0]
    return match.seat_b_id if loser.pk == match.seat_a_id else match.seat_a_id
