"""The public league pages: the web client's page shell at shareable paths, answering 404 for a
league, season or member handle the server does not have (a link checker, a crawler or a link
preview learns it is not there; the client shows the refusal in words as before).

They live with the leagues, routed from the root URLs by name (``server.urls``), so no other app
imports the leagues (``tests/test_layers.py``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from leagues.models import League
from leagues.selectors import member_renamed

TEMPLATE = "frontend/index.html"  # the web client's shell (frontend.views.shell)


@require_safe
def league_page(
    request: HttpRequest, slug: str, season: int | None = None, handle: str | None = None
) -> HttpResponseBase:
    """The shell, with 404 for what the league does not have (an unlisted league is found by
    its slug, as its API reads it); a renamed member's old handle redirects to its new one."""
    if handle is not None:
        renamed = member_renamed(slug, handle)
        if renamed is not None:  # a renamed member keeps its old address (docs/leagues.md)
            return HttpResponsePermanentRedirect(
                reverse("league-member", kwargs={"slug": slug, "handle": renamed})
            )
    status = 200 if _exists(slug, season, handle) else 404
    return TemplateResponse(request, TEMPLATE, status=status)


def _exists(slug: str, season: int | None, handle: str | None) -> bool:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        return False
    if season is not None and not league.seasons.filter(pk=season).exists():
        return False
    return handle is None or league.members.filter(handle=handle).exists()


urlpatterns = [
    path("leagues/<slug:slug>/", league_page, name="league"),
    path("leagues/<slug:slug>/seasons/<int:season>/", league_page, name="league-season"),
    path("leagues/<slug:slug>/members/<path:handle>/", league_page, name="league-member"),
]
