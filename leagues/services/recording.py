"""A finished tournament's result enters its season exactly once.

It gives places and points, the season's standings, and the league's ratings and their history.
Webhooks announce it.

Recording holds the league's row lock. So a league's results enter one at a time, in one order
(``recorded_seq``). The rating of each builds on the one before.

``league_recompute`` replays the recorded tournaments in that order, from the tournaments
themselves. That must give exactly the incremental rows; a test holds it. It also splits the bot
members of leagues recorded before bots were told apart by strength. Run it with ``manage.py
league_recompute <slug>``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from leagues.models import (
    Correction,
    CorrectionKind,
    League,
    LeagueTournament,
    Member,
    MemberKind,
    Rating,
    RatingChange,
    Result,
    Standing,
)
from leagues.rules import rating as rating_rules
from leagues.rules.scoring import (
    Finisher,
    Outcome,
    bot_handle,
    corrected,
    has_final,
    placements,
    played_it,
)
from leagues.services import closing, forfeits, webhooks
from tournaments.models import Seat, Status
from tournaments.rules.bots import DEFAULT_LEVEL
from tournaments.rules.standings import scores
from tournaments.selectors.owed import Owed


def in_league(tournament_id: int) -> bool:
    """Whether the tournament's round and end concern a league (``settings.TOURNAMENT_HOOKS``).

    That is when it joined a season. It joins only when opened, never later.
    """
    return LeagueTournament.objects.filter(tournament_id=tournament_id).exists()


TOURNAMENT_FINISHED = "leagues.tasks.tournament_finished"


def results_owed(*, now: datetime) -> list[Owed]:
    """Finished league tournaments whose result is not entered yet, for the reconciler.

    Their hook task was lost (``settings.RECONCILE_SOURCES``). This is league work, not the
    tournament's. So no tournament lock is taken for it; the league's lock serialises it.
    """
    links = LeagueTournament.objects.filter(
        recorded_at__isnull=True,
        tournament__status=Status.FINISHED,
        season__closed_at__isnull=True,  # owed again once the season is reopened
    ).values_list("tournament_id", "tournament__round", "tournament__updated_at")
    return [
        Owed(f"league_result:{tid}", None, finished, TOURNAMENT_FINISHED, (tid, round_number))
        for tid, round_number, finished in links
    ]


def tournament_record(*, tournament_id: int) -> bool:
    """Enter a finished league tournament's result.

    ``False`` if it is not one, or was already entered.
    """
    found = (
        LeagueTournament.objects.filter(tournament_id=tournament_id, recorded_at__isnull=True)
        .values_list("pk", "season__league_id")
        .first()
    )
    if found is None:
        return False
    link_id, league_id = found
    with transaction.atomic():
        # The league's lock: one recording at a time per league (ratings build on each other),
        # and a redelivered hook task waits here, then finds the link recorded.
        league = League.objects.select_for_update().get(pk=league_id)
        link = LeagueTournament.objects.select_related("season", "tournament").get(pk=link_id)
        if link.recorded_at is not None or link.tournament.status != Status.FINISHED:
            return False
        if link.season.closed_at is not None:  # a late result waits for a reopened season
            return False
        last = LeagueTournament.objects.filter(season__league=league).aggregate(
            seq=Max("recorded_seq")
        )
        link.recorded_seq = (last["seq"] or 0) + 1
        link.recorded_at = timezone.now()
        link.save(update_fields=["recorded_seq", "recorded_at"])
        results = _apply(link)
        _announce(link, results)
    return True


def _apply(link: LeagueTournament) -> list[Result]:
    """Results, standings and ratings of one tournament, its corrections applied.

    The caller holds the league lock.
    """
    members = members_of(link)
    ended = forfeits.board(link, members)
    last_round = link.tournament.round
    finishers = [
        _finisher(seat, member.pk, ended)
        for seat, member in members
        if played_it(
            dropped=seat.dropped, reclaimed_round=seat.reclaimed_round, last_round=last_round
        )
    ]
    by_member = {member.pk: seat for seat, member in members}
    fans = {f.key: f.fans for f in finishers}
    results = [
        Result(
            link=link,
            member_id=outcome.key,
            seat=by_member[outcome.key].number,
            place=outcome.place,
            points=outcome.points,
            fans=fans[outcome.key],
            champion=outcome.champion,
            finalist=outcome.finalist,
        )
        for outcome in _outcomes(link, finishers)
    ]
    Result.objects.bulk_create(results)
    _add_to_standings(link, results)
    _rate(link, results)
    return results


def _outcomes(link: LeagueTournament, finishers: list[Finisher]) -> list[Outcome]:
    """What the tournament produced, then its corrections if any (``rules.corrected``)."""
    table = link.season.scoring
    outcomes = [
        Outcome(
            placed.key,
            placed.place,
            placed.points,
            champion=next(f.champion for f in finishers if f.key == placed.key),
            finalist=next(f.finalist for f in finishers if f.key == placed.key),
        )
        for placed in placements(finishers, table)
    ]
    corrections = list(
        Correction.objects.filter(
            Q(link=link) | Q(season_id=link.season_id, link__isnull=True)
        ).order_by("id")
    )
    if not corrections:
        return outcomes
    manual = [c for c in corrections if c.kind == CorrectionKind.MANUAL_RESULT]
    places = {int(key): place for key, place in manual[-1].places.items()} if manual else None
    struck = {c.member_id for c in corrections if c.kind == CorrectionKind.DISQUALIFY}
    final = has_final(link.tournament.seat_count)
    return corrected(outcomes, table, places=places, struck={m for m in struck if m}, final=final)


def members_of(link: LeagueTournament) -> list[tuple[Seat, Member]]:
    """The scoring seats that are members.

    A human seat counts if it is linked. A bot seat counts when the season allows bots. It plays as
    a bot member of the league, by name and strength. That member is made on first sight.
    """
    tournament, season = link.tournament, link.season
    seats = tournament.seats.select_related("member_link__member")
    found = []
    for seat in seats:
        if not scores(is_robot=seat.is_robot, seat_count=tournament.seat_count):
            continue
        member_link = getattr(seat, "member_link", None)
        if member_link is not None:
            found.append((seat, member_link.member))
        elif seat.kind == "bot" and season.bots_allowed:
            found.append((seat, _bot_member(season.league_id, seat)))
    return found


def _bot_member(league_id: int, seat: Seat) -> Member:
    """The bot member a bot seat plays as, one per name and strength.

    A rookie and a champion of one name are not one player. One rating would blend them.
    """
    level = seat.bot_level or DEFAULT_LEVEL
    bot, _ = Member.objects.get_or_create(
        league_id=league_id,
        handle=bot_handle(seat.name, level),
        defaults={"kind": MemberKind.BOT, "bot_level": level},
    )
    return bot


def _finisher(seat: Seat, key: int, ended: forfeits.Board) -> Finisher:
    kept = ended.won.get(seat.pk, [])
    return Finisher(
        key=key,
        fans=seat.tokens + sum(fans for _, fans in kept),
        trophies=len(kept),
        highest_round=max((r for r, _ in kept), default=0),
        champion=seat.number in ended.winners,
        finalist=seat.number in ended.finalists,
    )


def _add_to_standings(link: LeagueTournament, results: list[Result]) -> None:
    for result in results:
        row, _ = Standing.objects.get_or_create(season=link.season, member_id=result.member_id)
        Standing.objects.filter(pk=row.pk).update(
            points=F("points") + result.points,
            wins=F("wins") + int(result.champion),
            finals=F("finals") + int(result.finalist),  # a 1-2 seat game has no Final
            fans=F("fans") + result.fans,
            played=F("played") + 1,
        )


def _rate(link: LeagueTournament, results: list[Result]) -> None:
    league_id = link.season.league_id
    known = {
        r.member_id: r for r in Rating.objects.filter(member__in=[x.member_id for x in results])
    }
    before = {key: rating_rules.Skill(row.mu, row.sigma) for key, row in known.items()}
    after = rating_rules.rate(before, {r.member_id: r.place for r in results})
    start = rating_rules.initial()
    for key, skill in after.items():
        old = before.get(key, start)
        Rating.objects.update_or_create(
            member_id=key,
            defaults={
                "league_id": league_id,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "tournaments": (known[key].tournaments if key in known else 0) + 1,
            },
        )
        RatingChange.objects.create(
            member_id=key,
            link=link,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=skill.mu,
            sigma=skill.sigma,
        )


def _announce(link: LeagueTournament, results: list[Result]) -> None:
    from apikit.shapes import to_json
    from leagues.selectors.leagues import standings_of

    league_id, season_id = link.season.league_id, link.season_id
    handles = dict(
        Member.objects.filter(pk__in=[r.member_id for r in results]).values_list("pk", "handle")
    )
    base = {"league": link.season.league.slug, "season": season_id}
    finished = {
        **base,
        "tournament": link.tournament_id,
        "results": [
            {"member": handles[r.member_id], "place": r.place, "points": r.points} for r in results
        ],
    }
    key = f"tournament_finished:{link.tournament_id}"
    webhooks.emit(league_id=league_id, kind="tournament_finished", key=key, data=finished)
    standings = {
        **base,
        "after_tournament": link.tournament_id,
        **to_json(standings_of(link.season)),
    }
    key = f"standings_changed:{season_id}:{link.recorded_seq}"
    webhooks.emit(league_id=league_id, kind="standings_changed", key=key, data=standings)


def round_announce(*, tournament_id: int, round_number: int) -> bool:
    """A league tournament's round closed: tell the league's endpoints."""
    link = (
        LeagueTournament.objects.select_related("season__league")
        .filter(tournament_id=tournament_id)
        .first()
    )
    if link is None:
        return False
    data = {
        "league": link.season.league.slug,
        "season": link.season_id,
        "tournament": tournament_id,
        "round": round_number,
    }
    key = f"round_finished:{tournament_id}:{round_number}"
    with transaction.atomic():
        webhooks.emit(league_id=link.season.league_id, kind="round_finished", key=key, data=data)
    return True


def league_recompute(*, league_id: int) -> int:
    """Recompute the league's results, standings and ratings from its recorded tournaments.

    They are replayed in their recorded order. Returns how many were replayed. If that would move a
    closed season, ``season_closed``, and nothing changes.
    """
    with transaction.atomic():
        League.objects.select_for_update().get(pk=league_id)
        return league_replay(league_id=league_id)


def league_replay(*, league_id: int) -> int:
    """``league_recompute``'s work, inside the caller's transaction.

    The caller (a correction) holds the league's lock. ``season_closed`` if it would move a closed
    season.
    """
    with closing.kept_closed(league_id):
        return _replay(league_id)


def _replay(league_id: int) -> int:
    Result.objects.filter(link__season__league_id=league_id).delete()
    Standing.objects.filter(season__league_id=league_id).delete()
    Rating.objects.filter(league_id=league_id).delete()
    RatingChange.objects.filter(link__season__league_id=league_id).delete()
    links = (
        LeagueTournament.objects.filter(season__league_id=league_id, recorded_seq__isnull=False)
        .select_related("season", "tournament")
        .order_by("recorded_seq")
    )
    count = 0
    for link in links:
        _apply(link)
        count += 1
    # Bot members no result names any more (the one "Bot Cog" of every strength that
    # recordings before bot strengths were told apart made): gone with their ratings. One a
    # correction names stays (the audit trail keeps it).
    bots = Member.objects.filter(league_id=league_id, kind=MemberKind.BOT)
    bots.filter(results=None, corrections=None).delete()
    return count
