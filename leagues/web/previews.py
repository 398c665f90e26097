"""Link previews of the public league pages.

A preview is the title and description a chat app or a crawler shows for a shared link. The server
writes them into the HTML it sends. Those readers do not run scripts. They are in the request's
language. They use public facts only. A tournament's champion shows once its result is recorded, as
the results endpoint tells it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues.models import League, LeagueTournament, Member, Season
from leagues.rules.rating import Skill
from leagues.selectors.leagues import standings_of
from leagues.shapes import Standings

SITE = "Challengers!"


@dataclass(frozen=True, slots=True)
class Preview:
    title: str
    description: str


def league_preview(league: League) -> Preview:
    count = league.members.count()
    about = ngettext(
        "%(league)s: standings, results and ratings of its %(count)s member.",
        "%(league)s: standings, results and ratings of its %(count)s members.",
        count,
    ) % {"league": league.name, "count": count}
    description = f"{league.description} {about}" if league.description else about
    return Preview(_("%(league)s — Challengers! league") % {"league": league.name}, description)


def season_preview(league: League, season: Season, standings: Standings | None = None) -> Preview:
    """A season's preview. ``standings``: everyone's standings, when already read."""
    title = _("%(league)s, %(season)s — Challengers!") % {
        "league": league.name,
        "season": season.name,
    }
    leader = _leader(standings or standings_of(season))
    played = season.links.filter(recorded_seq__isnull=False).count()
    if leader is None:
        return Preview(title, _("No result recorded in this season yet."))
    handle, points = leader
    text = ngettext(
        "%(member)s leads with %(points)s points after %(count)s tournament.",
        "%(member)s leads with %(points)s points after %(count)s tournaments.",
        played,
    )
    return Preview(title, text % {"member": handle, "points": points, "count": played})


def _leader(standings: Standings) -> tuple[str, int] | None:
    """The first row of everyone's standings in the season, as the standings rank it."""
    rows = standings.rows
    return (rows[0].member, rows[0].points) if rows else None


def member_preview(league: League, member: Member) -> Preview:
    title = _("%(member)s in %(league)s — Challengers!") % {
        "member": member.handle,
        "league": league.name,
    }
    rating = getattr(member, "rating", None)
    if rating is None:
        return Preview(title, _("Not rated yet: no recorded tournament."))
    ordinal = Skill(rating.mu, rating.sigma).ordinal
    text = ngettext(
        "Rating %(rating).2f after %(count)s tournament.",
        "Rating %(rating).2f after %(count)s tournaments.",
        rating.tournaments,
    )
    return Preview(title, text % {"rating": ordinal, "count": rating.tournaments})


def tournament_preview(league: League, link: LeagueTournament) -> Preview:
    values = {"id": link.tournament_id, "league": league.name}
    title = _("Game #%(id)s round by round — %(league)s") % values
    champions = [
        r.member.handle for r in link.results.filter(champion=True).select_related("member")
    ]
    if link.recorded_seq is None or not champions:
        return Preview(title, _("Each round's matches, the Final and the result."))
    return Preview(
        title,
        _("Champion: %(names)s. Each round's matches, the Final and the result.")
        % {"names": ", ".join(champions)},
    )
