"""The public league pages: the web client's page shell at shareable paths.

A league, season, member or tournament the server does not have answers 404. So a link checker, a
crawler or a link preview learns it is not there. The client shows the refusal in words as before.
The HTML holds the link preview of the page it is (``previews``). A season's page comes drawn
(``season_page``): its standings and tournaments are in the HTML.

They live with the leagues, routed from the root URLs by name (``server.urls``). So no other app
imports the leagues (``tests/test_layers.py``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from leagues.models import League, LeagueTournament, Season
from leagues.selectors.leagues import member_renamed, standings_of
from leagues.web import embeds, previews
from leagues.web.previews import Preview
from leagues.web.season_page import SeasonPage, season_page

TEMPLATE = "frontend/index.html"  # the web client's shell (frontend.views.shell)
CARD = "frontend/preview-card.png"  # the image a link preview shows (1200 by 630)


@require_safe
def league_page(
    request: HttpRequest,
    slug: str,
    season: int | None = None,
    handle: str | None = None,
    tournament: int | None = None,
) -> HttpResponseBase:
    """The shell, with 404 for what the league does not have.

    An unlisted league is found by its slug, as its API reads it. A renamed member's old handle
    redirects to its new one.
    """
    if handle is not None:
        renamed = member_renamed(slug, handle)
        if renamed is not None:  # a renamed member keeps its old address (docs/leagues.md)
            return HttpResponsePermanentRedirect(
                reverse("league-member", kwargs={"slug": slug, "handle": renamed})
            )
    if season is not None:  # drawn here: the first paint shows the season
        preview, drawn = _season_page(slug, season)
    else:
        preview, drawn = _preview(slug, handle, tournament), None
    context: dict[str, object] = {"preview": preview, "drawn": drawn}
    context["image"] = request.build_absolute_uri(static(CARD))
    context["url"] = request.build_absolute_uri(request.path)
    return TemplateResponse(request, TEMPLATE, context, status=200 if preview else 404)


def _season_page(slug: str, season_id: int) -> tuple[Preview | None, SeasonPage | None]:
    """A season's preview and its page drawn, reading its standings once for both.

    ``None``s for a season the league does not have.
    """
    found = Season.objects.filter(pk=season_id, league__slug=slug).select_related("league")
    season = found.first()
    if season is None:
        return None, None
    standings = standings_of(season)
    return previews.season_preview(season.league, season, standings), season_page(season, standings)


def _preview(slug: str, handle: str | None, tournament: int | None) -> Preview | None:
    """The page's link preview. ``None`` for a page the league does not have."""
    league = League.objects.filter(slug=slug).first()
    if league is None:
        return None
    if handle is not None:
        member = league.members.filter(handle=handle).select_related("rating").first()
        return previews.member_preview(league, member) if member else None
    if tournament is not None:
        link = LeagueTournament.objects.filter(
            tournament_id=tournament, season__league=league
        ).first()
        return previews.tournament_preview(league, link) if link else None
    return previews.league_preview(league)


urlpatterns = [
    path("leagues/<slug:slug>/", league_page, name="league"),
    path("leagues/<slug:slug>/embed/", embeds.embed_page, name="league-embed"),
    path("leagues/<slug:slug>/seasons/<int:season>/", league_page, name="league-season"),
    path("leagues/<slug:slug>/members/<path:handle>/", league_page, name="league-member"),
    path(
        "leagues/<slug:slug>/tournaments/<int:tournament>/", league_page, name="league-tournament"
    ),
]
