"""Corrections of recorded results, always with a reason.

An organizer may disqualify a member, from one tournament or a whole season. An organizer may enter
a tournament's places by hand. An organizer may record a member's forfeit of one match
(``forfeits``).

A correction is appended, never edited. The league is then replayed from its recorded tournaments,
every correction applied (``recording``). That rebuilds its results, standings and ratings. So they
are exactly what they would be had the tournament ended that way. Ratings build on each other. So a
correction early in a league moves every later rating too. ``standings_changed`` follows.

Only a recorded result is corrected. Anything else is refused with ``result_not_released``. That
includes a tournament still playing, whose matches may hold hidden cards. It includes one finished
but not yet recorded. It includes a match whose result is not public yet. A correction changes
places and points only, never a match, a deck or a replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from infra.errors import ApplicationError, ConflictError, NotFoundError
from leagues.models import (
    Correction,
    CorrectionKind,
    League,
    LeagueTournament,
    Member,
    Result,
    Season,
)
from leagues.rules.scoring import LeagueRuleError, check_places
from leagues.services import forfeits, recording, webhooks
from leagues.services.leagues import league_of, require_open, require_organizer
from matches.models import Match
from matches.release import result_public
from tournaments.selectors.viewers import Organizer


def correction_create(
    *,
    organizer: Organizer | None,
    slug: str,
    kind: str,
    reason: str,
    tournament_id: int | None = None,
    season_id: int | None = None,
    member: str | None = None,
    places: Mapping[str, int] | None = None,
    match_id: int | None = None,
) -> Correction:
    """Append a correction and replay the league with it, under the league's lock."""
    league = league_of(slug)
    by = require_organizer(organizer, league)
    with transaction.atomic():
        # The recording lock: no result enters while the league is replayed.
        League.objects.select_for_update().get(pk=league.pk)
        if kind == CorrectionKind.DISQUALIFY:
            correction = _disqualification(league, tournament_id, season_id, member)
        elif kind == CorrectionKind.FORFEIT:
            correction = _forfeit(league, tournament_id, match_id, member)
        else:
            correction = _manual_result(league, tournament_id, places or {})
        require_open(Season.objects.get(pk=correction.season_id))
        correction.kind, correction.reason, correction.by_id = kind, reason, by.user_id
        correction.save()
        recording.league_replay(league_id=league.pk)
        _announce(correction)
    return correction


def _disqualification(
    league: League, tournament_id: int | None, season_id: int | None, handle: str | None
) -> Correction:
    if handle is None or (tournament_id is None) == (season_id is None):
        raise ApplicationError(
            "bad_correction", _("A disqualification names a member and a tournament or a season.")
        )
    member = _member(league, handle)
    if tournament_id is not None:
        link = _recorded_link(league, tournament_id)
        if not Result.objects.filter(link=link, member=member).exists():
            raise ConflictError(
                "member_not_in_tournament", _("That member has no result in this tournament.")
            )
        return Correction(league=league, season_id=link.season_id, link=link, member=member)
    return _season_disqualification(league, season_id or 0, member)


def _season_disqualification(league: League, season_id: int, member: Member) -> Correction:
    season = Season.objects.filter(league=league, pk=season_id).first()
    if season is None:
        raise NotFoundError("unknown_season", _("This league has no such season."))
    done = Correction.objects.filter(season=season, link=None, member=member)
    if done.exists():
        raise ConflictError("member_disqualified", _("That member is already out of this season."))
    return Correction(league=league, season=season, member=member)


def _manual_result(
    league: League, tournament_id: int | None, places: Mapping[str, int]
) -> Correction:
    if tournament_id is None:
        raise ApplicationError("bad_correction", _("A manual result names its tournament."))
    link = _recorded_link(league, tournament_id)
    members = dict(
        Member.objects.filter(league=league, handle__in=list(places)).values_list("handle", "pk")
    )
    unknown = sorted(set(places) - set(members))
    if unknown:
        raise NotFoundError(
            "unknown_member", _("The league has no such member."), {"unknown": unknown}
        )
    by_id = {members[handle]: place for handle, place in places.items()}
    try:
        check_places(by_id, set(link.results.values_list("member_id", flat=True)))
    except LeagueRuleError as error:
        raise ApplicationError(error.code, _(error.message), error.details) from error
    stored: dict[str, Any] = {str(key): place for key, place in by_id.items()}
    return Correction(league=league, season_id=link.season_id, link=link, places=stored)


def _forfeit(
    league: League, tournament_id: int | None, match_id: int | None, handle: str | None
) -> Correction:
    if tournament_id is None or match_id is None or handle is None:
        raise ApplicationError(
            "bad_correction", _("A forfeit names a tournament, one of its matches and a member.")
        )
    link = _recorded_link(league, tournament_id)
    member = _member(league, handle)
    match = _released_match(tournament_id, match_id)
    if link.corrections.filter(kind=CorrectionKind.MANUAL_RESULT).exists():
        raise ConflictError(
            "manual_result_entered",
            _("This tournament's places were entered by hand: enter them again instead."),
        )
    seat_of = {m.pk: seat for seat, m in recording.members_of(link)}
    seat = seat_of.get(member.pk)
    if seat is None:
        raise ConflictError(
            "member_not_in_tournament", _("That member has no seat in this tournament.")
        )
    if seat.pk not in (match.seat_a_id, match.seat_b_id):
        raise ConflictError("member_not_in_match", _("That member did not play this match."))
    if forfeits.match_winner(link, match, seat_of) != seat.pk:
        raise ConflictError(
            "match_not_won", _("That member did not win this match: there is nothing to forfeit.")
        )
    return Correction(
        league=league, season_id=link.season_id, link=link, member=member, match=match
    )


def _released_match(tournament_id: int, match_id: int) -> Match:
    """A match of the tournament whose result is public.

    So its winner may change without telling anything its events do not already say.
    """
    match = Match.objects.filter(pk=match_id, tournament_id=tournament_id).first()
    if match is None:
        raise NotFoundError("unknown_match", _("This tournament has no such match."))
    if not result_public(match) or match.winner_id is None:
        raise ConflictError(
            "result_not_released", _("Only a released match is forfeited: this one is not.")
        )
    return match


def _member(league: League, handle: str) -> Member:
    member = Member.objects.filter(league=league, handle=handle).first()
    if member is None:
        raise NotFoundError("unknown_member", _("This league has no member with that handle."))
    return member


def _recorded_link(league: League, tournament_id: int) -> LeagueTournament:
    link = LeagueTournament.objects.filter(
        tournament_id=tournament_id, season__league=league
    ).first()
    if link is None:
        raise NotFoundError("not_league_tournament", _("This league has no such tournament."))
    if link.recorded_seq is None:
        raise ConflictError(
            "result_not_released",
            _("Only a recorded result is corrected: this tournament's is not released yet."),
        )
    return link


def _announce(correction: Correction) -> None:
    from apikit.shapes import to_json
    from leagues.selectors.leagues import standings_of

    season = correction.season
    data = {
        "league": correction.league.slug,
        "season": season.pk,
        "correction": correction.pk,
        **to_json(standings_of(season)),
    }
    key = f"standings_changed:{season.pk}:correction:{correction.pk}"
    webhooks.emit(league_id=correction.league_id, kind="standings_changed", key=key, data=data)
