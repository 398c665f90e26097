"""Which corrections changed a tournament's recorded result, and the winners they left.

The public pages mark these. The exports carry these winners instead of the as-played ones.

A tournament's own corrections change its result: a disqualification from it, a manual result, a
forfeit, a no-show. So does a season disqualification of a member who sat in it.
"""

from __future__ import annotations

from collections.abc import Iterable

from leagues.models import (
    Correction,
    CorrectionKind,
    LeagueTournament,
    Member,
    MemberKind,
    MemberSeat,
)
from leagues.rules.scoring import bot_handle
from matches.models import Match
from tournaments.models import Seat
from tournaments.rules.bots import DEFAULT_LEVEL


def corrections_by_link(links: Iterable[LeagueTournament]) -> dict[int, list[Correction]]:
    """Each link's corrections, oldest first, in three queries whatever the number of links."""
    links = list(links)
    found: dict[int, list[Correction]] = {link.pk: [] for link in links}
    related = ("link", "member", "match__seat_a", "match__seat_b")
    for correction in Correction.objects.filter(link__in=links).select_related(*related):
        found[correction.link_id or 0].append(correction)
    for link_id, correction in _season_disqualifications(links):
        found[link_id].append(correction)
    for corrections in found.values():
        corrections.sort(key=lambda correction: correction.pk)
    return found


def _season_disqualifications(
    links: list[LeagueTournament],
) -> list[tuple[int, Correction]]:
    """(link, correction) for each season disqualification of a member who sat in the link."""
    seasons = {link.season_id for link in links}
    season_wide = Correction.objects.filter(
        season__in=seasons, link=None, kind=CorrectionKind.DISQUALIFY
    ).select_related("member")
    by_member = {(c.season_id, c.member_id): c for c in season_wide}
    if not by_member:
        return []
    link_of = {link.tournament_id: link for link in links}
    pairs = []
    members = {member for _, member in by_member if member is not None}
    for member_id, tournament_id in _sitters(link_of, members):
        link = link_of[tournament_id]
        correction = by_member.get((link.season_id, member_id))
        if correction is not None:
            pairs.append((link.pk, correction))
    return pairs


def _sitters(link_of: dict[int, LeagueTournament], members: set[int]) -> list[tuple[int, int]]:
    """(member, tournament) for each of ``members`` that sat in one of the tournaments.

    A human is found by its seat's link. A bot is found by name and strength
    (``recording.members_of``).
    """
    humans = MemberSeat.objects.filter(member_id__in=members, seat__tournament_id__in=link_of)
    found = list(humans.values_list("member_id", "seat__tournament_id"))
    bots = dict(
        Member.objects.filter(pk__in=members, kind=MemberKind.BOT).values_list("handle", "pk")
    )
    seats = Seat.objects.filter(tournament_id__in=link_of, kind="bot")
    for name, level, tournament_id in seats.values_list("name", "bot_level", "tournament_id"):
        member_id = bots.get(bot_handle(name, level or DEFAULT_LEVEL))
        if member_id is not None:
            found.append((member_id, tournament_id))
    return found


def forfeited_winners(corrections: Iterable[Correction]) -> dict[int, tuple[int, int]]:
    """Match id → (the seat number that wins it now, the latest forfeit's id).

    Only a match's winner may forfeit it (``match_not_won``). So each forfeit hands the match to the
    other side. After an odd number the as-played loser holds it. After an even number the winner
    does.
    """
    moved: dict[int, tuple[int, int]] = {}
    for correction in corrections:
        match = correction.match
        if correction.kind != CorrectionKind.FORFEIT or match is None:
            continue
        holder = moved.get(match.pk, (_number(match, match.winner_id), 0))[0]
        other = match.seat_b if holder == match.seat_a.number else match.seat_a
        moved[match.pk] = (other.number, correction.pk)
    return moved


def _number(match: Match, seat_id: int | None) -> int:
    return match.seat_a.number if seat_id == match.seat_a_id else match.seat_b.number
