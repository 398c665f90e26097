"""League reads: public leagues, a league, a season's standings and a member's history.

Standings carry the vector that decided each rank. A season's JSON lines are in
``leagues.selectors.lines``.

Nothing secret leaves here: no token and no claim hash. Only the league's organizers get the join
code.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from apikit.shapes import row
from infra.errors import NotFoundError
from leagues.models import (
    Correction,
    CorrectionKind,
    EmbedSite,
    FormerHandle,
    League,
    LeagueTournament,
    Member,
    Rating,
    RatingChange,
    Result,
    Season,
    Standing,
    Visibility,
    WebhookDelivery,
    WebhookEndpoint,
)
from leagues.rules.rating import Skill
from leagues.rules.scoring import TIEBREAK, Totals, ranked
from leagues.selectors.corrected import corrections_by_link, forfeited_winners
from leagues.shapes import (
    ClosureView,
    CorrectionView,
    Delivery,
    EmbedSiteItem,
    ForfeitedMatch,
    HistoryRow,
    LeagueItem,
    LeagueView,
    MemberHistory,
    MemberItem,
    ResultRow,
    SeasonOptions,
    SeasonView,
    SkillChange,
    StandingRow,
    Standings,
    TournamentResults,
    WebhookItem,
)
from leagues.shapes import Skill as SkillShape
from tournaments.selectors.viewers import Organizer


def _league(league: League) -> LeagueItem:
    return row(LeagueItem, league, public=league.visibility == Visibility.PUBLIC)


def league_rows() -> QuerySet[League]:
    """Public leagues only. An unlisted one is reached by its slug alone."""
    return League.objects.filter(visibility=Visibility.PUBLIC)


def league_list() -> list[LeagueItem]:
    return [_league(league) for league in league_rows()]


def league_get(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError("not_found", _("No league has that slug."))
    return league


def is_organizer(league: League, organizer: Organizer | None) -> bool:
    return organizer is not None and league.organizers.filter(pk=organizer.user_id).exists()


def season_view(season: Season, *, organizer: bool) -> SeasonView:
    return row(
        SeasonView,
        season,
        options=row(SeasonOptions, season, winter_park=season.winter_mode),
        tournaments=season.links.count(),
        archived=season.archived_at is not None,
        closed=season.closed_at is not None,
        closures=[
            ClosureView(
                action=c.action, by=c.by.username if c.by else None, at=c.at, reason=c.reason
            )
            for c in season.closures.select_related("by")
        ],
        join_code=season.join_code if organizer else None,
    )


def league_view(slug: str, organizer: Organizer | None) -> LeagueView:
    league = league_get(slug)
    mine = is_organizer(league, organizer)
    return row(
        LeagueView,
        _league(league),
        seasons=[season_view(s, organizer=mine) for s in league.seasons.all()],
        members=league.members.count(),
    )


def season_pick(league: League, season_id: int | None) -> Season:
    """The season asked for, else the default.

    The default is the newest season not archived that has a recorded result. With no such result,
    it is the newest season not archived. So a season just made does not turn the default standings
    into an empty table. An archived test season is never the default. When every season is
    archived, the default is the newest one. ``unknown_season`` if there is none.
    """
    seasons = league.seasons.all()
    if season_id:
        season = seasons.filter(pk=season_id).first()
    else:
        current = seasons.filter(archived_at__isnull=True)
        played = current.filter(links__recorded_seq__isnull=False).distinct()
        season = played.first() or current.first() or seasons.first()
    if season is None:
        raise NotFoundError("unknown_season", _("This league has no such season."))
    return season


def _skill(rating: Rating | RatingChange | None) -> SkillShape | None:
    """A rating, or the one a change left, as shown with its ordinal."""
    return None if rating is None else row(SkillShape, Skill(rating.mu, rating.sigma))


KINDS = ("all", "human", "bot")


def standings_of(season: Season, kind: str = "all") -> Standings:
    """Rank, the tie-break vector and what decided it, and the member's league rating.

    ``kind`` ``human`` or ``bot`` ranks that kind of member alone. ``all`` ranks everyone.
    """
    standings = Standing.objects.filter(season=season).select_related("member__rating")
    if kind != "all":
        standings = standings.filter(member__kind=kind)
    rows = list(standings)
    by_member = {row.member_id: row for row in rows}
    totals = [
        Totals(row.member_id, row.points, row.wins, row.finals, row.fans, row.played)
        for row in rows
    ]
    table = [
        StandingRow(
            rank=entry.rank,
            member=by_member[entry.totals.key].member.handle,
            kind=by_member[entry.totals.key].member.kind,
            **entry.totals.vector(),
            vector=list(entry.totals.vector().values()),
            decided_by=entry.decided_by,
            rating=_skill(getattr(by_member[entry.totals.key].member, "rating", None)),
        )
        for entry in ranked(totals)
    ]
    corrections = [correction_view(c) for c in _season_corrections(season)]
    return Standings(
        season=season.pk, kind=kind, tiebreak=list(TIEBREAK), rows=table, corrections=corrections
    )


def _season_corrections(season: Season) -> list[Correction]:
    return list(season.corrections.select_related("link", "member").order_by("id"))


def standings_view(slug: str, season_id: int | None, kind: str = "all") -> Standings:
    league = league_get(slug)
    return standings_of(season_pick(league, season_id), kind)


def member_renamed(slug: str, handle: str) -> str | None:
    """The current handle of the member that ``handle`` used to name.

    Its old addresses redirect there. ``None`` if the handle is live now or was never used.
    """
    if Member.objects.filter(league__slug=slug, handle=handle).exists():
        return None
    former = FormerHandle.objects.filter(league__slug=slug, handle__iexact=handle)
    return former.values_list("member__handle", flat=True).first()


def member_history(slug: str, handle: str) -> MemberHistory:
    """A member's results, tournament by tournament, with its rating before and after each."""
    league = league_get(slug)
    member = Member.objects.filter(league=league, handle=handle).first()
    if member is None and (renamed := member_renamed(slug, handle)):  # a former handle's
        member = Member.objects.filter(league=league, handle=renamed).first()
    if member is None:
        raise NotFoundError("unknown_member", _("This league has no member with that handle."))
    changes = {
        c.link_id: c for c in RatingChange.objects.filter(member=member).select_related("link")
    }
    results = (
        Result.objects.filter(member=member)
        .select_related("link__tournament")
        .order_by("link__recorded_seq")
    )
    corrected = corrections_by_link(result.link for result in results)
    return row(
        MemberHistory,
        member,
        member=member.handle,
        rating=_skill(Rating.objects.filter(member=member).first()),
        tournaments=[
            _history_row(result, changes.get(result.link_id), corrected[result.link_id])
            for result in results
        ],
        corrections=[correction_view(c) for c in _corrections_about(member)],
    )


def _corrections_about(member: Member) -> list[Correction]:
    """The corrections that name the member.

    Also the manual results and forfeits of its tournaments, since both may move its place.
    """
    named = Q(member=member)
    moving = [CorrectionKind.MANUAL_RESULT, CorrectionKind.FORFEIT]
    manual = Q(kind__in=moving, link__results__member=member)
    manual |= Q(kind=CorrectionKind.MANUAL_RESULT, places__has_key=str(member.pk))
    found = Correction.objects.filter(named | manual).select_related("link", "member")
    return list(found.distinct().order_by("id"))


def correction_view(correction: Correction) -> CorrectionView:
    """A correction as the audit trail shows it. Its author's name stays private."""
    handles = (
        dict(
            Member.objects.filter(pk__in=[int(k) for k in correction.places]).values_list(
                "pk", "handle"
            )
        )
        if correction.places
        else {}
    )
    return row(
        CorrectionView,
        correction,
        season=correction.season_id,
        tournament=correction.link.tournament_id if correction.link else None,
        member=correction.member.handle if correction.member else None,
        match=correction.match_id,
        places={handles[int(k)]: place for k, place in correction.places.items()},
    )


def correction_rows(slug: str) -> QuerySet[Correction]:
    """Every correction of the league, oldest first: its audit trail."""
    return Correction.objects.filter(league=league_get(slug)).order_by("id")


def correction_list(slug: str) -> list[CorrectionView]:
    return [correction_view(c) for c in correction_rows(slug).select_related("link", "member")]


def _history_row(
    result: Result, change: RatingChange | None, corrections: list[Correction]
) -> HistoryRow:
    rating = None
    if change is not None:
        before, after = Skill(change.mu_before, change.sigma_before), Skill(change.mu, change.sigma)
        rating = row(SkillChange, after, change=after.ordinal - before.ordinal)
    link = result.link
    return row(
        HistoryRow,
        result,
        tournament=link.tournament_id,
        title=link.tournament.title or None,
        season=link.season_id,
        corrections=[correction_view(c) for c in corrections],
        rating=rating,
    )


def tournament_results(slug: str, tournament_id: int) -> TournamentResults:
    """A league tournament's results by place, with each member's rating after it.

    Empty until the tournament is recorded. Results are public from then on.
    """
    link = (
        LeagueTournament.objects.filter(tournament_id=tournament_id, season__league__slug=slug)
        .select_related("season")
        .first()
    )
    if link is None:
        raise NotFoundError("not_league_tournament", _("This league has no such tournament."))
    changes = {c.member_id: c for c in RatingChange.objects.filter(link=link)}
    results = link.results.select_related("member").order_by("place", "seat")
    corrections = corrections_by_link([link])[link.pk]
    return TournamentResults(
        tournament=tournament_id,
        season=link.season_id,
        recorded=link.recorded_seq is not None,
        rows=[_result_row(result, changes.get(result.member_id)) for result in results],
        corrections=[correction_view(c) for c in corrections],
        forfeited=[
            ForfeitedMatch(match=match, winner=winner, correction=correction)
            for match, (winner, correction) in forfeited_winners(corrections).items()
        ],
    )


def _result_row(result: Result, change: RatingChange | None) -> ResultRow:
    member = result.member
    return row(ResultRow, result, member=member.handle, kind=member.kind, rating=_skill(change))


def member_rows(slug: str) -> QuerySet[Member]:
    """Every member of the league, by kind and handle, for its organizers."""
    return Member.objects.filter(league__slug=slug).order_by("kind", "handle")


def member_list(slug: str) -> list[MemberItem]:
    """Every member of the league, for its organizers.

    Each has its handle, kind, strength and whether its token is claimed. No hash leaves here.
    """
    members = member_rows(slug)
    return [
        row(
            MemberItem,
            m,
            member=m.handle,
            bot_level=m.bot_level or None,
            claimed=m.claimed_at is not None,
        )
        for m in members
    ]


def embed_site_view(site: EmbedSite) -> EmbedSiteItem:
    return row(EmbedSiteItem, site)


def embed_site_list(slug: str) -> list[EmbedSiteItem]:
    return [embed_site_view(s) for s in EmbedSite.objects.filter(league__slug=slug)]


def webhook_view(endpoint: WebhookEndpoint) -> WebhookItem:
    """An endpoint without its secret. The secret shows only when made or rotated."""
    return row(WebhookItem, endpoint)


def webhook_rows(slug: str) -> QuerySet[WebhookEndpoint]:
    """The league's endpoints, oldest first."""
    return WebhookEndpoint.objects.filter(league__slug=slug).order_by("id")


def webhook_list(slug: str) -> list[WebhookItem]:
    return [webhook_view(e) for e in webhook_rows(slug)]


def delivery_view(delivery: WebhookDelivery) -> Delivery:
    return row(Delivery, delivery)


def delivery_rows(endpoint: WebhookEndpoint, *, limit: int = 100) -> QuerySet[WebhookDelivery]:
    """The endpoint's deliveries, newest first. An organizer retries from this log."""
    # Not ``endpoint.deliveries``: it reads each row's endpoint id (which GraphQL's optimizer may
    # leave unread) to attach the endpoint.
    return WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-sequence")[:limit]


def delivery_list(endpoint: WebhookEndpoint) -> list[Delivery]:
    return [delivery_view(d) for d in delivery_rows(endpoint)]


# Nodes: an object by its number (GraphQL's ``node(id:)``). A number is guessable where a slug is
# not, so an unlisted league and what is in it are found this way by its organizers alone.


def visible_league(league_id: int, organizer: Organizer | None) -> League:
    """The league of that number, if the caller may reach it. ``not_found`` otherwise."""
    league = League.objects.filter(pk=league_id).first()
    if league is None or not (
        league.visibility == Visibility.PUBLIC or is_organizer(league, organizer)
    ):
        raise NotFoundError("not_found", _("No such object."))
    return league


def league_item_by_id(league_id: int, organizer: Organizer | None) -> LeagueItem:
    return _league(visible_league(league_id, organizer))


def league_by_id(league_id: int, organizer: Organizer | None) -> LeagueView:
    return league_view(visible_league(league_id, organizer).slug, organizer)


def season_by_id(season_id: int, organizer: Organizer | None) -> SeasonView:
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        raise NotFoundError("not_found", _("No such object."))
    league = visible_league(season.league_id, organizer)
    return season_view(season, organizer=is_organizer(league, organizer))


def member_by_id(member_id: int, organizer: Organizer | None) -> MemberHistory:
    member = Member.objects.filter(pk=member_id).first()
    if member is None:
        raise NotFoundError("not_found", _("No such object."))
    return member_history(visible_league(member.league_id, organizer).slug, member.handle)


def member_item_by_id(member_id: int, organizer: Organizer | None) -> MemberItem:
    """A member as its league's organizers see it. ``not_found`` for anyone else."""
    member = Member.objects.filter(pk=member_id).select_related("league").first()
    if member is None or not is_organizer(member.league, organizer):
        raise NotFoundError("not_found", _("No such object."))
    return next(m for m in member_list(member.league.slug) if m.id == member_id)


def webhook_item_by_id(endpoint_id: int, organizer: Organizer | None) -> WebhookItem:
    """An endpoint, for its league's organizers. ``not_found`` for anyone else."""
    endpoint = WebhookEndpoint.objects.filter(pk=endpoint_id).select_related("league").first()
    if endpoint is None or not is_organizer(endpoint.league, organizer):
        raise NotFoundError("not_found", _("No such object."))
    return webhook_view(endpoint)


def delivery_by_id(delivery_id: int, organizer: Organizer | None) -> Delivery:
    """A delivery, for its endpoint's league's organizers. ``not_found`` for anyone else."""
    found = WebhookDelivery.objects.filter(pk=delivery_id).select_related("endpoint__league")
    delivery = found.first()
    if delivery is None or not is_organizer(delivery.endpoint.league, organizer):
        raise NotFoundError("not_found", _("No such object."))
    return delivery_view(delivery)


def correction_by_id(correction_id: int, organizer: Organizer | None) -> CorrectionView:
    """A correction, for whoever may see its league. Its audit trail is the league's."""
    found = Correction.objects.filter(pk=correction_id).select_related("link", "member")
    correction = found.first()
    if correction is None:
        raise NotFoundError("not_found", _("No such object."))
    visible_league(correction.league_id, organizer)
    return correction_view(correction)
